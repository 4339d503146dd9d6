import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { SchemaService } from './schema.service';

@ApiTags('service')
@Controller()
export class SchemaController {
  constructor(private readonly schemas: SchemaService) {}

  @Access.Public()
  @Get('action_schema')
  @ApiOperation({
    operationId: 'getActionSchema',
    summary: 'JSON Schema (2020-12) of an action: oneOf the six actions, discriminated by `type`',
  })
  @ApiOkResponse({ description: 'A JSON Schema document', schema: { type: 'object', additionalProperties: true } })
  actionSchema(): Record<string, unknown> {
    return this.schemas.actionSchema();
  }
}
