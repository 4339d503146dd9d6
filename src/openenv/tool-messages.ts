import { ValidationFailedError, type FieldProblem } from '../common/errors/domain-errors';
import { parseToolSchemaVariant, type ToolSchemaVariant } from '../mcp';

/**
 * The step payloads of OpenEnv's MCPToolClient: its ListToolsAction and CallToolAction as it serializes them,
 * `{"type": "list_tools"}` and `{"type": "call_tool", "tool_name": …, "arguments": {…}}`. OpenEnv's Action base
 * model also has a `metadata` object, accepted and unused; `tool_schema` picks the strict schema variant.
 */
export type ToolMessage =
  | { type: 'list_tools'; variant: ToolSchemaVariant }
  | { type: 'call_tool'; tool_name: string; arguments: Record<string, unknown> };

const FIELDS = {
  list_tools: ['type', 'tool_schema', 'metadata'],
  call_tool: ['type', 'tool_name', 'arguments', 'metadata'],
} as const;

/** The tool message in a step's data, null when the data is not one (it is an action), or a 422 when malformed. */
export function parseToolMessage(data: unknown): ToolMessage | null {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const message = data as Record<string, unknown>;
  const type = message.type;
  if (type !== 'list_tools' && type !== 'call_tool') return null;
  const problems: FieldProblem[] = Object.keys(message)
    .filter((field) => message[field] !== null && !(FIELDS[type] as readonly string[]).includes(field))
    .map((field) => ({ field, message: `property ${field} should not exist` }));
  if (message.metadata != null && (typeof message.metadata !== 'object' || Array.isArray(message.metadata))) {
    problems.push({ field: 'metadata', message: 'metadata must be an object' });
  }
  if (type === 'list_tools') {
    const variant = parseToolSchemaVariant(message.tool_schema);
    if (variant === null) problems.push({ field: 'tool_schema', message: 'tool_schema must be one of: full, strict' });
    if (problems.length > 0 || variant === null) throw new ValidationFailedError(problems);
    return { type, variant };
  }
  const toolName = message.tool_name;
  if (toolName == null) problems.push({ field: 'tool_name', message: 'tool_name is required' });
  else if (typeof toolName !== 'string' || toolName === '') problems.push({ field: 'tool_name', message: 'tool_name must be a non-empty string' });
  const args = message.arguments ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) problems.push({ field: 'arguments', message: 'arguments must be an object' });
  if (problems.length > 0) throw new ValidationFailedError(problems);
  return { type, tool_name: toolName as string, arguments: args as Record<string, unknown> };
}
