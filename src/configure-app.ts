import type { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { ApiDocumentService } from './openapi/api-document.service';
import { buildOpenApiDocument } from './openapi/openapi-document';

/** Everything main.ts and the tests both need on top of the module: the OpenAPI document and its UI. */
export function configureApp(app: INestApplication): INestApplication {
  app.enableShutdownHooks();
  const document = buildOpenApiDocument(app);
  app.get(ApiDocumentService).set(document);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
  return app;
}
