import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { ApiErrors, queryValidation } from '../common/api-errors.decorator';
import { EpisodeTools } from './episode-tools.service';
import { ToolListDto, ToolsQueryDto, type ToolListFormat } from './dto/tools-query.dto';
import type { ToolDefinition } from './tool-catalog';

/**
 * The tools that /mcp and /ws serve, for clients that hand them to a model themselves (an agent loop over the
 * HTTP API, or an OpenEnv client that lists tools and wants them in its provider's format).
 */
@ApiTags('mcp')
@Controller('tools')
export class ToolsController {
  constructor(private readonly tools: EpisodeTools) {}

  @Access.Public()
  @Get()
  @ApiOperation({
    operationId: 'listTools',
    summary: 'The environment as tools (as /mcp and /ws serve them), in MCP, OpenAI or Anthropic form',
  })
  @ApiOkResponse({ type: ToolListDto })
  @ApiErrors(queryValidation('tool_schema', 'tool_schema must be one of the following values: full, strict'))
  list(@Query() query: ToolsQueryDto): ToolListDto {
    const tool_schema = query.tool_schema ?? 'full';
    const format = query.format ?? 'mcp';
    const strict = tool_schema === 'strict';
    return { tool_schema, format, tools: this.tools.list(tool_schema).map((tool) => inFormat(tool, format, strict)) };
  }
}

function inFormat(tool: ToolDefinition, format: ToolListFormat, strict: boolean): Record<string, unknown> {
  switch (format) {
    case 'mcp':
      return { ...tool };
    case 'openai':
      return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema, strict } };
    case 'anthropic':
      return { name: tool.name, description: tool.description, input_schema: tool.inputSchema, ...(strict ? { strict: true } : {}) };
  }
}
