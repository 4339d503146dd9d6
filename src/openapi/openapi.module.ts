import { Global, Module } from '@nestjs/common';
import { ApiDocumentService } from './api-document.service';
import { MetadataController } from './metadata.controller';
import { SchemaController } from './schema.controller';
import { SchemaService } from './schema.service';

@Global()
@Module({ controllers: [SchemaController, MetadataController], providers: [ApiDocumentService, SchemaService], exports: [ApiDocumentService, SchemaService] })
export class OpenApiModule {}
