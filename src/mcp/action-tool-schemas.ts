import { ACTION_TYPES, type ActionType } from '../engine/vocabulary';
import type { Json } from '../common/json';

export const ACTION_DESCRIPTIONS: Record<ActionType, string> = {
  open_ticket: 'Open a ticket from the inbox and read it in full (customer, body, contract notes, recent events).',
  search_policy: 'Search the policy knowledge base; returns ranked articles with their full text.',
  set_priority: 'Set the priority of the open ticket.',
  route_ticket: 'Route the open ticket to a team.',
  send_reply: 'Send the customer of the open ticket a reply.',
  resolve_ticket: 'Resolve the open ticket with a resolution code (and an amount where it needs one). Ends the episode.',
};

export interface ActionToolSchema {
  name: ActionType;
  description: string;
  /** The action's fields other than `type`, as a standalone JSON Schema object. */
  parameters: { type: 'object'; properties: Record<string, Json>; required: string[]; additionalProperties: false };
}

/**
 * One tool per action, cut from the action JSON Schema (GET /action_schema): used for the MCP tools on the
 * server and for the LLM agent runner's function tools, so neither can drift from the validated action format.
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

function definitionName(schema: { oneOf: { $ref: string }[] }, type: string): string {
  const branches = schema.oneOf.map((b) => b.$ref.replace('#/$defs/', ''));
  const found = branches.find((name) => name.toLowerCase() === `${type.replace(/_/g, '')}action`);
  if (!found) throw new Error(`no schema for action ${type}`);
  return found;
}

/** Replaces `$ref`s into `$defs` with their content, so each tool schema stands alone. */
function inline(node: Json, defs: Record<string, Json>): Json {
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
