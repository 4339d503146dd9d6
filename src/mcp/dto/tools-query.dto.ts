import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { TOOL_SCHEMA_VARIANTS, type ToolSchemaVariant } from '../tool-schemas';

export const TOOL_LIST_FORMATS = ['mcp', 'openai', 'anthropic'] as const;
export type ToolListFormat = (typeof TOOL_LIST_FORMATS)[number];

export class ToolsQueryDto {
  @ApiProperty({
    required: false,
    enum: TOOL_SCHEMA_VARIANTS,
    default: 'full',
    description:
      '`full`: input schemas with every constraint the server checks. `strict`: what OpenAI strict function calling ' +
      'and Anthropic strict tool use accept (every property required, optional ones nullable, no length/range/pattern ' +
      'keywords: those constraints are written in the descriptions and still checked by the server).',
  })
  @IsIn(TOOL_SCHEMA_VARIANTS)
  @IsOptional()
  tool_schema?: ToolSchemaVariant;

  @ApiProperty({
    required: false,
    enum: TOOL_LIST_FORMATS,
    default: 'mcp',
    description:
      '`mcp`: MCP tool definitions (name, description, inputSchema, outputSchema, annotations). `openai`: Chat ' +
      'Completions `tools` entries ({type: "function", function: {name, description, parameters, strict}}). ' +
      '`anthropic`: Messages API `tools` entries ({name, description, input_schema, strict}). `strict` is true only ' +
      'with tool_schema=strict.',
  })
  @IsIn(TOOL_LIST_FORMATS)
  @IsOptional()
  format?: ToolListFormat;
}

export class ToolListDto {
  @ApiProperty({ enum: TOOL_SCHEMA_VARIANTS })
  tool_schema!: ToolSchemaVariant;

  @ApiProperty({ enum: TOOL_LIST_FORMATS })
  format!: ToolListFormat;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'One entry per tool, in the requested format.',
  })
  tools!: Record<string, unknown>[];
}
