import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenApiDocument, Schema } from './openapi-model';

/**
 * Validates values against the schemas of an OpenAPI 3.0 document with ajv (JSON Schema draft-07 plus the formats
 * of ajv-formats), after translating what 3.0 says differently: `nullable`, boolean `exclusiveMinimum`,
 * `discriminator` (an annotation over `oneOf`, which ajv checks by itself) and the document's one extension,
 * `x-max-decimal-places` (a float-safe "at most n decimals", checked here on the number's decimal form, as JSON
 * writes it).
 *
 * `closedObjects`: objects whose schema lists properties and says nothing of others accept no others, so a
 * response that carries a field the document does not describe is reported (the document is then not exact).
 */
export class SchemaValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly id: string;

  constructor(document: OpenApiDocument, private readonly options: { closedObjects: boolean }) {
    this.ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addKeyword({
      keyword: 'maxDecimalPlaces',
      type: 'number',
      schemaType: 'number',
      validate: (places: number, value: number) => decimalPlacesOf(value) <= places,
    });
    this.id = options.closedObjects ? 'openapi-closed' : 'openapi';
    const definitions = Object.fromEntries(Object.entries(document.components.schemas).map(([name, schema]) => [name, this.convert(schema)]));
    this.ajv.addSchema({ $id: this.id, definitions });
  }

  /** null when the value is valid, else ajv's complaints, one line each. */
  problems(schema: Schema, value: unknown): string | null {
    const key = JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(this.convert(schema));
      this.cache.set(key, validate);
    }
    if (validate(value)) return null;
    return (validate.errors ?? [])
      .filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf')
      .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)} (value ${JSON.stringify(valueAt(value, e.instancePath))?.slice(0, 80)})`)
      .join('; ');
  }

  private convert(schema: Schema): Record<string, unknown> {
    if (schema.$ref !== undefined) return { $ref: schema.$ref.replace('#/components/schemas/', `${this.id}#/definitions/`) };
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema) as [keyof Schema, unknown][]) {
      switch (key) {
        case 'nullable':
        case 'discriminator':
        case 'description':
          break;
        case 'exclusiveMinimum':
          if (value === true) out.exclusiveMinimum = schema.minimum;
          break;
        case 'exclusiveMaximum':
          if (value === true) out.exclusiveMaximum = schema.maximum;
          break;
        case 'minimum':
          if (schema.exclusiveMinimum !== true) out.minimum = value;
          break;
        case 'maximum':
          if (schema.exclusiveMaximum !== true) out.maximum = value;
          break;
        case 'properties':
          out.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, child]) => [name, this.convert(child)]));
          break;
        case 'items':
        case 'not':
          out[key] = this.convert(value as Schema);
          break;
        case 'additionalProperties':
          out.additionalProperties = typeof value === 'object' ? this.convert(value as Schema) : value;
          break;
        case 'allOf':
        case 'oneOf':
        case 'anyOf':
          out[key] = (value as Schema[]).map((child) => this.convert(child));
          break;
        case 'x-max-decimal-places':
          out.maxDecimalPlaces = value;
          break;
        default:
          if (!String(key).startsWith('x-') && key !== ('example' as never)) out[key] = value;
      }
    }
    if (this.options.closedObjects && schema.type === 'object' && schema.properties && schema.additionalProperties === undefined) {
      out.additionalProperties = false;
    }
    return schema.nullable ? { anyOf: [out, { type: 'null' }] } : out;
  }
}

/** Decimal places of a number as JSON writes it: 19.99 has 2, 1e-7 has 7, 1.5e+21 has none. */
export function decimalPlacesOf(value: number): number {
  const [mantissa, exponent = '0'] = String(Math.abs(value)).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

function valueAt(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), value);
}
