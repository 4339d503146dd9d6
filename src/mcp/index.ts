/* The MCP module's public surface: the tools (also served inside /ws sessions) and the JSON-RPC envelopes. */
export { McpModule } from './mcp.module';
export { EpisodeTools, toToolResult, type ToolCaller, type ToolOutcome, type ToolResult } from './episode-tools.service';
export type { ToolDefinition } from './tool-catalog';

export { actionToolSchemas, parseToolSchemaVariant, strictSchema, TOOL_SCHEMA_VARIANTS, type ActionToolSchema, type ToolSchemaVariant } from './tool-schemas';
