import { Global, Module } from '@nestjs/common';
import { ApiDocumentService } from './api-document.service';
import { MetadataController } from './metadata.controller';
import { RootController } from './root.controller';
import { SchemaController } from './schema.controller';
import { SchemaService } from './schema.service';

@Global()
@Module({ controllers: [RootController, SchemaController, MetadataController], providers: [ApiDocumentService, SchemaService], exports: [ApiDocumentService, SchemaService] })
export class OpenApiModule {}
