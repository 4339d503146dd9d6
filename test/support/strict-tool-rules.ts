/*
 * What OpenAI's strict function calling and Anthropic's strict tool use accept, written down from their
 * documentation as a checker, since no model API is reachable from here. A schema passes only if both providers
 * document every part of it as supported: where one allows more (OpenAI takes `pattern`, `minimum`, type lists),
 * the stricter rule is the one kept. Each rule names where it comes from.
 */

export const SOURCES = {
  openaiSupported: 'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas',
  openaiStrict: 'https://platform.openai.com/docs/guides/function-calling#strict-mode',
  openaiFunctionName: 'https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools',
  anthropicLimits: 'https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations',
  anthropicStrict: 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use',
  anthropicToolName: 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools',
} as const;

export interface StrictProblem {
  rule: string;
  source: string;
  path: string;
  message: string;
}

export interface StrictTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

/**
 * Keywords both providers document as supported in strict mode. OpenAI: type, properties, required,
 * additionalProperties, items, enum, const, anyOf, $ref/$defs, description, plus string pattern/format, number
 * ranges and multipleOf, array minItems/maxItems; Anthropic: basic types, enum, const, anyOf, allOf (limited),
 * $ref/$defs/definitions, required, additionalProperties:false, description, a list of string formats and array
 * minItems of 0 or 1, and NOT numerical constraints (minimum, maximum, multipleOf…), string length constraints,
 * or array constraints beyond minItems 0/1. The intersection:
 */
const SUPPORTED_BY_BOTH = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'format',
  'minItems',
]);

/** Refusals documented in so many words, reported with their own rule (and source) rather than as "unknown". */
const DOCUMENTED_REFUSALS: Record<string, { rule: string; source: string; why: string }> = {
  minimum: { rule: 'anthropic-no-numeric-constraints', source: SOURCES.anthropicLimits, why: 'numerical constraints are not supported' },
  maximum: { rule: 'anthropic-no-numeric-constraints', source: SOURCES.anthropicLimits, why: 'numerical constraints are not supported' },
  exclusiveMinimum: { rule: 'anthropic-no-numeric-constraints', source: SOURCES.anthropicLimits, why: 'numerical constraints are not supported' },
  exclusiveMaximum: { rule: 'anthropic-no-numeric-constraints', source: SOURCES.anthropicLimits, why: 'numerical constraints are not supported' },
  multipleOf: { rule: 'anthropic-no-numeric-constraints', source: SOURCES.anthropicLimits, why: 'numerical constraints are not supported' },
  minLength: { rule: 'no-string-length', source: SOURCES.anthropicLimits, why: 'string length constraints are not supported (nor listed by OpenAI)' },
  maxLength: { rule: 'no-string-length', source: SOURCES.anthropicLimits, why: 'string length constraints are not supported (nor listed by OpenAI)' },
  pattern: { rule: 'anthropic-limited-pattern', source: SOURCES.anthropicLimits, why: 'regular expressions are limited (no lookaround, no backreferences); kept out' },
  maxItems: { rule: 'anthropic-array-constraints', source: SOURCES.anthropicLimits, why: 'array constraints beyond minItems 0 or 1 are not supported' },
  uniqueItems: { rule: 'anthropic-array-constraints', source: SOURCES.anthropicLimits, why: 'array constraints beyond minItems 0 or 1 are not supported' },
  allOf: { rule: 'openai-no-composition', source: SOURCES.openaiSupported, why: 'allOf is not supported (only anyOf)' },
  oneOf: { rule: 'openai-no-composition', source: SOURCES.openaiSupported, why: 'oneOf is not supported (only anyOf)' },
  not: { rule: 'openai-no-composition', source: SOURCES.openaiSupported, why: 'not is not supported' },
  if: { rule: 'openai-no-composition', source: SOURCES.openaiSupported, why: 'if/then/else is not supported' },
  then: { rule: 'openai-no-composition', source: SOURCES.openaiSupported, why: 'if/then/else is not supported' },
  else: { rule: 'openai-no-composition', source: SOURCES.openaiSupported, why: 'if/then/else is not supported' },
  dependentRequired: { rule: 'openai-no-composition', source: SOURCES.openaiSupported, why: 'dependentRequired is not supported' },
  dependentSchemas: { rule: 'openai-no-composition', source: SOURCES.openaiSupported, why: 'dependentSchemas is not supported' },
  patternProperties: { rule: 'openai-object-keywords', source: SOURCES.openaiSupported, why: 'patternProperties is not supported' },
  unevaluatedProperties: { rule: 'openai-object-keywords', source: SOURCES.openaiSupported, why: 'unevaluatedProperties is not supported' },
  propertyNames: { rule: 'openai-object-keywords', source: SOURCES.openaiSupported, why: 'propertyNames is not supported' },
  minProperties: { rule: 'openai-object-keywords', source: SOURCES.openaiSupported, why: 'minProperties is not supported' },
  maxProperties: { rule: 'openai-object-keywords', source: SOURCES.openaiSupported, why: 'maxProperties is not supported' },
};

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** The string formats on both lists. */
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;

/** Every way a tool breaks strict tool use on either provider; an empty list means both accept it. */
export function strictToolProblems(tool: StrictTool): StrictProblem[] {
  const problems: StrictProblem[] = [];
  const report = (rule: string, source: string, path: string, message: string) => problems.push({ rule, source, path, message });
  if (!TOOL_NAME.test(tool.name)) {
    report('tool-name', SOURCES.anthropicToolName, 'name', `"${tool.name}" must match ${TOOL_NAME} (both providers; OpenAI: ${SOURCES.openaiFunctionName})`);
  }
  const root = tool.inputSchema as Record<string, unknown> | null;
  if (root === null || typeof root !== 'object' || Array.isArray(root) || root.type !== 'object') {
    report('root-object', SOURCES.openaiSupported, '', 'the root of a tool schema must be {"type": "object"} (Anthropic: input_schema is an object schema)');
    return problems;
  }
  if ('anyOf' in root) report('root-object', SOURCES.openaiSupported, '', 'the root must not be anyOf');
  const counts = { properties: 0, enumValues: 0 };
  walk(root, '', 1, counts, report);
  if (counts.properties > MAX_PROPERTIES) report('openai-limits', SOURCES.openaiSupported, '', `${counts.properties} object properties (at most ${MAX_PROPERTIES})`);
  if (counts.enumValues > MAX_ENUM_VALUES) report('openai-limits', SOURCES.openaiSupported, '', `${counts.enumValues} enum values (at most ${MAX_ENUM_VALUES})`);
  return problems;
}

type Report = (rule: string, source: string, path: string, message: string) => void;

function walk(node: unknown, path: string, depth: number, counts: { properties: number; enumValues: number }, report: Report): void {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) {
    report('schema-object', SOURCES.openaiSupported, path, 'every schema must be an object');
    return;
  }
  const schema = node as Record<string, unknown>;
  if (depth > MAX_DEPTH) report('openai-limits', SOURCES.openaiSupported, path, `nested deeper than ${MAX_DEPTH} levels`);
  for (const keyword of Object.keys(schema)) {
    if (SUPPORTED_BY_BOTH.has(keyword)) continue;
    const refusal = DOCUMENTED_REFUSALS[keyword];
    if (refusal) report(refusal.rule, refusal.source, `${path}/${keyword}`, `${keyword}: ${refusal.why}`);
    else report('unsupported-keyword', SOURCES.openaiSupported, `${path}/${keyword}`, `${keyword} is not among the keywords both providers support (${SOURCES.anthropicLimits})`);
  }
  const type = schema.type;
  if (Array.isArray(type)) {
    report('anthropic-type-list', SOURCES.anthropicLimits, `${path}/type`, 'a list of types is OpenAI-only; write anyOf [schema, {"type": "null"}] for a nullable value');
  } else if (type !== undefined && !TYPES.has(type as string)) {
    report('types', SOURCES.openaiSupported, `${path}/type`, `type ${JSON.stringify(type)} is not a supported type`);
  }
  if (type === undefined && !('anyOf' in schema) && !('$ref' in schema) && !('enum' in schema) && !('const' in schema)) {
    report('types', SOURCES.openaiSupported, path, 'every schema needs a type (or anyOf, enum, const, $ref)');
  }
  if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#')) {
    report('local-refs', SOURCES.anthropicLimits, `${path}/$ref`, 'external $ref is not supported');
  }
  if (typeof schema.format === 'string' && !FORMATS.has(schema.format)) {
    report('formats', SOURCES.anthropicLimits, `${path}/format`, `format "${schema.format}" is not on both providers' lists`);
  }
  if (schema.minItems !== undefined && schema.minItems !== 0 && schema.minItems !== 1) {
    report('anthropic-array-constraints', SOURCES.anthropicLimits, `${path}/minItems`, 'minItems may only be 0 or 1');
  }
  if (Array.isArray(schema.enum)) {
    counts.enumValues += schema.enum.length;
    if (schema.enum.some((value) => value !== null && typeof value === 'object')) {
      report('anthropic-enum-primitives', SOURCES.anthropicLimits, `${path}/enum`, 'enum values must be strings, numbers, booleans or null');
    }
  }
  const isObject = type === 'object' || 'properties' in schema;
  if (isObject) {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    counts.properties += Object.keys(properties).length;
    if (schema.additionalProperties !== false) {
      report('additional-properties-false', SOURCES.openaiStrict, path, 'every object must set "additionalProperties": false (Anthropic: ' + SOURCES.anthropicLimits + ')');
    }
    for (const name of Object.keys(properties)) {
      if (!required.includes(name)) {
        report('all-required', SOURCES.openaiStrict, `${path}/properties/${name}`, `"${name}" must be listed in required (make it nullable to let the model leave it out)`);
      }
      walk(properties[name], `${path}/properties/${name}`, depth + 1, counts, report);
    }
    for (const name of required) {
      if (!(name in properties)) report('all-required', SOURCES.openaiStrict, `${path}/required`, `"${name}" is required but not a property`);
    }
  }
  if (schema.items !== undefined) walk(schema.items, `${path}/items`, depth + 1, counts, report);
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((branch, i) => walk(branch, `${path}/anyOf/${i}`, depth, counts, report));
  for (const defs of ['$defs', 'definitions'] as const) {
    const definitions = schema[defs];
    if (definitions && typeof definitions === 'object') {
      for (const [name, definition] of Object.entries(definitions)) walk(definition, `${path}/${defs}/${name}`, depth, counts, report);
    }
  }
}
