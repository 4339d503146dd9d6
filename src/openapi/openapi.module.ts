import { Global, Module } from '@nestjs/common';
import { ApiDocumentService } from './api-document.service';
import { SchemaController } from './schema.controller';
import { SchemaService } from './schema.service';

@Global()
@Module({ controllers: [SchemaController], providers: [ApiDocumentService, SchemaService], exports: [ApiDocumentService, SchemaService] })
export class OpenApiModule {}
