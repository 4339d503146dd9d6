import type { OpenAPIObject } from '@nestjs/swagger';

import type { Json } from '../common/json';

const COMPONENT_PREFIX = '#/components/schemas/';

/**
 * Turns a schema from the OpenAPI document (and every component it references) into a standalone JSON Schema
 * (2020-12): refs point into `$defs`, `nullable` becomes a "null" type, `example` becomes `examples`, a
 * discriminator keeps only its property name, and the document's extensions (`x-…`, such as
 * `x-max-decimal-places`, which the description also states) are left out, since strict validators and tool-use
 * modes refuse keywords they do not know.
 */
export function toJsonSchema(document: OpenAPIObject, schema: Json, title: string, keptExtensions: readonly string[] = []): Record<string, Json> {
  const components = (document.components?.schemas ?? {}) as Record<string, Json>;
  const defs: Record<string, Json> = {};
  const include = (name: string): void => {
    if (name in defs) return;
    if (components[name] === undefined) throw new Error(`schema ${name} is not in the OpenAPI document`);
    defs[name] = {}; // placeholder first, so a schema that refers to itself terminates
    defs[name] = convert(components[name], include, keptExtensions);
  };
  const root = convert(schema, include, keptExtensions) as Record<string, Json>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title,
    ...root,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

function convert(node: Json, include: (name: string) => void, kept: readonly string[]): Json {
  if (Array.isArray(node)) return node.map((n) => convert(n, include, kept));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_PREFIX)) {
      const name = value.slice(COMPONENT_PREFIX.length);
      include(name);
      out.$ref = `#/$defs/${name}`;
    } else if (key === 'nullable' || (key.startsWith('x-') && !kept.includes(key))) {
      continue;
    } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
      // OpenAPI 3.0's flag on `minimum`/`maximum` is a bound of its own in JSON Schema.
      const bound = (node as Record<string, Json>)[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
      if (value && typeof bound === 'number') out[key] = bound;
    } else if ((key === 'minimum' || key === 'maximum') && (node as Record<string, Json>)[key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true) {
      continue;
    } else if (key === 'example') {
      out.examples = [value];
    } else if (key === 'discriminator' && value && typeof value === 'object' && !Array.isArray(value)) {
      // JSON Schema validators that understand `discriminator` (Ajv) take only `propertyName`; the mapping is
      // implied by each branch's single-value `type` enum.
      out.discriminator = { propertyName: (value as { propertyName: string }).propertyName };
    } else {
      out[key] = convert(value, include, kept);
    }
  }
  if ((node as { nullable?: boolean }).nullable === true) {
    // A composed schema (a $ref, allOf…) would reject null whatever its `type` says, so it becomes a choice.
    const composed = ['$ref', 'allOf', 'oneOf', 'anyOf'].some((k) => k in out);
    if (!composed && typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    } else {
      const { description, ...schema } = out;
      return { ...(description === undefined ? {} : { description }), anyOf: [schema, { type: 'null' }] };
    }
  }
  return out;
}
