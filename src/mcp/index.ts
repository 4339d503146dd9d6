/* The MCP module's public surface: the tools (also served inside /ws sessions) and the JSON-RPC envelopes. */
export { McpModule } from './mcp.module';
export { EpisodeTools, type ToolCaller, type ToolDefinition, type ToolResult } from './episode-tools.service';

export { actionToolSchemas, type ActionToolSchema } from './tool-schemas';
