import type { OpenAPIObject } from '@nestjs/swagger';
import type { Json } from '../common/json';
import Ajv2020 from 'ajv/dist/2020';
import type { BodyCheck } from '../common/compiled-body-checks';
import { hasAtMostDecimals } from '../engine/decimals';
import { toJsonSchema } from './json-schema';

const MAX_DECIMAL_PLACES = 'x-max-decimal-places';

/**
 * The check of a request body compiled once, with Ajv, from its component in the OpenAPI document: the same schema
 * clients read, so the server accepts exactly what the document says. `x-max-decimal-places` is checked on the
 * number's decimal form (never in floating point), as the DTO's own rule does. Lengths count code points and
 * patterns are Unicode regular expressions, as JSON Schema (and the DTOs' rules) say. The document states the
 * server's configured limits (MAX_MESSAGE_LENGTH, MAX_QUERY_LENGTH), so a body over them is refused here and
 * worded by class-validator and the step's own check of those limits, as before.
 */
export function compileBodyCheck(document: OpenAPIObject, component: string): BodyCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: false, discriminator: true, validateFormats: false });
  ajv.addKeyword({
    keyword: MAX_DECIMAL_PLACES,
    type: 'number',
    schemaType: 'number',
    validate: (places: number, value: number) => hasAtMostDecimals(value, places),
  });
  const schema = toJsonSchema(document, { $ref: `#/components/schemas/${component}` }, component, [MAX_DECIMAL_PLACES]);
  const { $schema: _dialect, ...compiled } = schema;
  const validate = ajv.compile(objectsWhereDiscriminated(compiled) as object);
  return (value) => validate(value) === true;
}

/**
 * A discriminated union is a union of objects, but Ajv's `discriminator` lets anything that is not an object through
 * (null, an array, a string): the union says `type: "object"` itself here, as the DTO's @IsObject does.
 */
function objectsWhereDiscriminated(node: Json): Json {
  if (Array.isArray(node)) return node.map(objectsWhereDiscriminated);
  if (node === null || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, objectsWhereDiscriminated(value)]));
  return 'discriminator' in node && !('type' in node) ? { type: 'object', ...out } : out;
}
