import { Injectable } from '@nestjs/common';
import { ApiDocumentService } from './api-document.service';
import type { Json } from '../common/json';
import { toJsonSchema } from './json-schema';

/** Schemas served to agents, cut from the OpenAPI document so they cannot drift from the DTOs. */
@Injectable()
export class SchemaService {
  private cachedActionSchema: Record<string, Json> | null = null;

  constructor(private readonly document: ApiDocumentService) {}

  /** OpenEnv's /schema: the action, observation and state schemas, from the same document. */
  environmentSchemas(): { action: Record<string, Json>; observation: Record<string, Json>; state: Record<string, Json> } {
    const document = this.document.get();
    return {
      action: this.actionSchema(),
      observation: toJsonSchema(document, { $ref: '#/components/schemas/ObservationDto' }, 'SupportDesk observation'),
      state: toJsonSchema(document, { $ref: '#/components/schemas/EpisodeStateDto' }, 'SupportDesk episode state'),
    };
  }

  /** A component of the document as a standalone JSON Schema (e.g. StepResponseDto, ObservationDto). */
  componentSchema(name: string, title: string): Record<string, Json> {
    return toJsonSchema(this.document.get(), { $ref: `#/components/schemas/${name}` }, title);
  }

  actionSchema(): Record<string, Json> {
    if (!this.cachedActionSchema) {
      const document = this.document.get();
      const stepRequest = document.components?.schemas?.StepRequestDto as { properties: Record<string, Json> };
      const { description: _description, ...union } = stepRequest.properties.action as Record<string, Json>;
      // `type: object` at the root: a discriminator only applies to objects (and strict validators insist).
      this.cachedActionSchema = toJsonSchema(document, { type: 'object', ...union }, 'SupportDesk action');
    }
    return this.cachedActionSchema;
  }
}
