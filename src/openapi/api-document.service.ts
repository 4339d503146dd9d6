import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Holds the document built at start-up, so routes derived from it serve exactly what /openapi.json says. */
@Injectable()
export class ApiDocumentService {
  private document: OpenAPIObject | null = null;

  set(document: OpenAPIObject): void {
    this.document = document;
  }

  get(): OpenAPIObject {
    if (!this.document) throw new Error('the OpenAPI document has not been built; call configureApp() first');
    return this.document;
  }
}
