import type { Json } from '../common/json';
import { ACTION_TYPES, type ActionType } from '../engine/vocabulary';

/**
 * The two forms tool input schemas are served in:
 * - full: every constraint the server checks (lengths, ranges), as the action schema states them;
 * - strict: what OpenAI's strict function calling and Anthropic's strict tool use accept: every property required,
 *   optional ones nullable (null means omitted, as everywhere), `additionalProperties: false` on every object, no
 *   keywords those modes refuse (length, range, pattern and format keywords, examples, defaults); each removed
 *   constraint is said in the property's description instead, and the server still checks it.
 */
export const TOOL_SCHEMA_VARIANTS = ['full', 'strict'] as const;
export type ToolSchemaVariant = (typeof TOOL_SCHEMA_VARIANTS)[number];

/** A variant named by a client (`tool_schema`); absent or null is the full form, anything else unknown is null. */
export function parseToolSchemaVariant(value: unknown): ToolSchemaVariant | null {
  if (value === undefined || value === null) return 'full';
  return (TOOL_SCHEMA_VARIANTS as readonly unknown[]).includes(value) ? (value as ToolSchemaVariant) : null;
}

export const ACTION_DESCRIPTIONS: Record<ActionType, string> = {
  open_ticket: 'Open a ticket from the inbox and read it in full (customer, body, contract notes, recent events).',
  search_policy: 'Search the policy knowledge base; returns ranked articles with their full text.',
  set_priority: 'Set the priority of the open ticket.',
  route_ticket: 'Route the open ticket to a team.',
  send_reply: 'Send the customer of the open ticket a reply.',
  resolve_ticket: 'Resolve the open ticket with a resolution code (and an amount where it needs one). Ends the episode.',
};

type JsonObject = { [key: string]: Json };

export interface ActionToolSchema {
  name: ActionType;
  description: string;
  /** The action's fields other than `type`, as a standalone JSON Schema object. */
  parameters: { type: 'object'; properties: Record<string, Json>; required: string[]; additionalProperties: false };
}

/**
 * One tool per action, cut from the action JSON Schema (GET /action_schema): used for the MCP tools, the /ws tool
 * messages and GET /tools, so no tool can drift from the validated action format.
 */
export function actionToolSchemas(actionSchema: Record<string, Json>): ActionToolSchema[] {
  const schema = actionSchema as { $defs: Record<string, Json>; oneOf: { $ref: string }[] };
  return ACTION_TYPES.map((type) => {
    const def = inline(schema.$defs[definitionName(schema, type)], schema.$defs) as {
      properties: Record<string, Json>;
      required?: string[];
    };
    const { type: _tag, ...properties } = def.properties;
    return {
      name: type,
      description: ACTION_DESCRIPTIONS[type],
      parameters: {
        type: 'object',
        properties,
        required: (def.required ?? []).filter((field) => field !== 'type'),
        additionalProperties: false,
      },
    };
  });
}

/** Keywords strict tool use refuses (both providers' lists, see the checker in test/strict-tool-schemas.spec.ts). */
const REFUSED_IN_STRICT = [
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'examples',
  'example',
  'default',
  'discriminator',
  '$schema',
  'title',
] as const;

/** The strict form of an input schema (see TOOL_SCHEMA_VARIANTS). */
export function strictSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(strictSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as JsonObject;
  const out: JsonObject = {};
  const said: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if ((REFUSED_IN_STRICT as readonly string[]).includes(key)) {
      const text = constraintText(key, value);
      if (text) said.push(text);
      continue;
    }
    out[key] = key === 'properties' ? strictProperties(value as JsonObject, (node.required as string[] | undefined) ?? []) : strictSchema(value);
  }
  if (out.type === 'object' || out.properties !== undefined) {
    out.required = Object.keys((out.properties as JsonObject | undefined) ?? {});
    out.additionalProperties = false;
  }
  if (said.length > 0) out.description = [out.description, ...said].filter(Boolean).join(' ');
  return Array.isArray(out.type) ? withoutTypeList(out) : out;
}

/** A type list such as ["number", "null"] (OpenAI-only) as the anyOf both providers take. */
function withoutTypeList(schema: JsonObject): JsonObject {
  const { type, description, enum: values, ...rest } = schema;
  const types = type as string[];
  const branches = types.map((t): JsonObject => {
    if (t === 'null') return { type: 'null' };
    const branchEnum = Array.isArray(values) ? values.filter((v) => v !== null) : undefined;
    return { type: t, ...rest, ...(branchEnum ? { enum: branchEnum } : {}) };
  });
  return { ...(description === undefined ? {} : { description }), anyOf: branches };
}

function strictProperties(properties: JsonObject, required: string[]): JsonObject {
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      const strict = strictSchema(property) as JsonObject;
      return [name, required.includes(name) ? strict : nullable(strict)];
    }),
  );
}

/**
 * An optional property in strict mode: present, and null when the caller means "omitted". Written as
 * `anyOf: [schema, {type: null}]`, the form both providers document for nullable values (a type list such as
 * ["string", "null"] is OpenAI's alternative, not documented by Anthropic).
 */
function nullable(schema: JsonObject): JsonObject {
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => (branch as JsonObject).type === 'null')) return schema;
  const { description, ...rest } = schema;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}

/**
 * A schema that stands alone, as a tool's input or output schema must: `$ref`s into `$defs` inlined, and no
 * `$schema` or `title` at the root (MCP clients validate with their own JSON Schema dialect).
 */
export function standaloneSchema(schema: Record<string, Json>): Record<string, Json> {
  const { $defs, $schema: _dialect, title: _title, ...root } = schema as Record<string, Json> & { $defs?: Record<string, Json> };
  return inline(root, ($defs ?? {}) as Record<string, Json>) as Record<string, Json>;
}

function constraintText(key: string, value: Json): string | null {
  switch (key) {
    case 'minLength':
      return value === 1 ? 'Must not be empty.' : `At least ${String(value)} characters.`;
    case 'maxLength':
      return `At most ${String(value)} characters.`;
    case 'pattern':
      return `Must match the pattern ${String(value)}.`;
    case 'minimum':
      return `At least ${String(value)}.`;
    case 'maximum':
      return `At most ${String(value)}.`;
    case 'minItems':
      return `At least ${String(value)} items.`;
    case 'maxItems':
      return `At most ${String(value)} items.`;
    default:
      return null;
  }
}

function definitionName(schema: { oneOf: { $ref: string }[] }, type: string): string {
  const branches = schema.oneOf.map((b) => b.$ref.replace('#/$defs/', ''));
  const found = branches.find((name) => name.toLowerCase() === `${type.replace(/_/g, '')}action`);
  if (!found) throw new Error(`no schema for action ${type}`);
  return found;
}

/** Replaces `$ref`s into `$defs` with their content, so each tool schema stands alone. */
export function inline(node: Json, defs: Record<string, Json>): Json {
  if (Array.isArray(node)) return node.map((n) => inline(n, defs));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as { $ref?: string }).$ref;
  if (typeof ref === 'string') return inline(defs[ref.replace('#/$defs/', '')], defs);
  const allOf = (node as { allOf?: Json[] }).allOf;
  if (Array.isArray(allOf) && allOf.length === 1) {
    const { allOf: _one, ...rest } = node as Record<string, Json>;
    return { ...(inline(allOf[0], defs) as Record<string, Json>), ...(inline(rest, defs) as Record<string, Json>) };
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, defs)]));
}
