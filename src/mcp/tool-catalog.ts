import type { Json } from '../common/json';
import { EPISODE_ID_MAX_LENGTH, EPISODE_ID_PATTERN } from '../episodes';
import type { SchemaService } from '../openapi/schema.service';
import { actionToolSchemas, standaloneSchema, strictSchema, TOOL_SCHEMA_VARIANTS, type ToolSchemaVariant } from './tool-schemas';

/** A tool as MCP's tools/list describes it (OpenEnv's list_tools renames inputSchema to input_schema). */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, Json>;
  /** What `structuredContent` holds on success; MCP clients validate results against it. */
  outputSchema: Record<string, Json>;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
}

const EPISODE_ID_PROPERTY: Record<string, Json> = {
  type: 'string',
  minLength: 1,
  maxLength: EPISODE_ID_MAX_LENGTH,
  pattern: EPISODE_ID_PATTERN.source,
  description: "The episode to act on; omitted (or null), the session's episode.",
};

const VIEWS = {
  view_inbox: {
    description: 'The task instruction, the inbox (ticket ids and subjects), the score so far (null until the end in an episode started with feedback "final"; withheld throughout a test-split episode played with an agent key) and the steps left.',
    fields: ['instruction', 'inbox', 'score', 'step_count', 'remaining_steps'],
  },
  view_ticket: {
    description: 'The open ticket in full, with its current priority, team and status; null before one is opened.',
    fields: ['active_ticket', 'last_action_error'],
  },
} as const;

/** What sets the views apart from the action tools, for agents and for people mapping tools onto the HTTP API. */
const READ_ONLY_NOTE = 'Read-only: it takes no step and is not an action (POST /step refuses it); over HTTP, GET /state/{episode_id} shows the same.';

/**
 * Every tool with its input schema in both variants and its output schema, built once from the OpenAPI document
 * (through SchemaService), so tools cannot drift from what the HTTP API validates and returns.
 */
export class ToolCatalog {
  private readonly byVariant: Record<ToolSchemaVariant, ToolDefinition[]>;
  private readonly names: ReadonlySet<string>;

  constructor(schemas: SchemaService) {
    const full = buildTools(schemas);
    const strict = full.map((tool) => ({ ...tool, inputSchema: strictSchema(tool.inputSchema) as Record<string, Json> }));
    this.byVariant = { full, strict };
    this.names = new Set(full.map((tool) => tool.name));
    for (const variant of TOOL_SCHEMA_VARIANTS) Object.freeze(this.byVariant[variant]);
  }

  list(variant: ToolSchemaVariant): ToolDefinition[] {
    return this.byVariant[variant];
  }

  has(name: string): boolean {
    return this.names.has(name);
  }
}

function buildTools(schemas: SchemaService): ToolDefinition[] {
  const stepResult = standaloneSchema(schemas.componentSchema('StepResponseDto', 'step result'));
  const observation = standaloneSchema(schemas.componentSchema('ObservationDto', 'observation')) as {
    properties: Record<string, Json>;
  };
  const actionTools = actionToolSchemas(schemas.actionSchema()).map(
    (tool): ToolDefinition => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { ...tool.parameters, properties: { ...tool.parameters.properties, episode_id: EPISODE_ID_PROPERTY } },
      outputSchema: stepResult,
      annotations: {
        title: tool.name.replace(/_/g, ' '),
        readOnlyHint: false,
        destructiveHint: tool.name === 'resolve_ticket',
        idempotentHint: false,
        openWorldHint: false,
      },
    }),
  );
  const viewTools = Object.entries(VIEWS).map(
    ([name, view]): ToolDefinition => ({
      name,
      // Said in the description too, since not every tool format carries MCP's annotations (OpenAI's does not).
      description: `${view.description} ${READ_ONLY_NOTE}`,
      inputSchema: { type: 'object', properties: { episode_id: EPISODE_ID_PROPERTY }, required: [], additionalProperties: false },
      outputSchema: {
        type: 'object',
        properties: {
          episode_id: { type: 'string' },
          ...Object.fromEntries(view.fields.map((field) => [field, observation.properties[field]])),
        },
        required: ['episode_id', ...view.fields],
        additionalProperties: false,
      },
      annotations: { title: name.replace(/_/g, ' '), readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    }),
  );
  return [...actionTools, ...viewTools];
}
