import fc from 'fast-check';
import { resolveRef, type OpenApiDocument, type Schema } from './openapi-model';

/*
 * fast-check arbitraries from OpenAPI 3.0 schemas: values that satisfy a schema, and values that break exactly one
 * of its constraints (a required field left out, a field the schema does not list, a string past its maxLength,
 * a value outside its enum or range, a wrong type, …), each labelled with the field it breaks. Nothing here knows
 * SupportDesk; `hint` lets the caller supply values for fields whose valid values depend on the server's state
 * (an existing episode id, a ticket of its inbox).
 */

/** A value taken from a pool of server state when the request is sent (the pools grow as the run goes on). */
export class Late {
  constructor(
    readonly pool: string,
    readonly index: number,
    readonly part?: string,
  ) {}
}

/**
 * Supplies the valid values of a field at `location` ("body:action.ticket_id", "query:cursor", "path:slug"), or
 * undefined to let the schema decide; `fromSchema` is what the schema alone would give.
 */
export type Hint = (location: string, fromSchema: () => fc.Arbitrary<unknown>) => fc.Arbitrary<unknown> | undefined;

export interface Broken {
  value: unknown;
  /** Dotted path of the broken field ("" for the value itself). */
  field: string;
  /** The constraint broken ("required", "maxLength", "pattern", …). */
  rule: string;
}

const MAX_GENERATED_LENGTH = 24;
/** Characters of every width: one UTF-16 unit, a surrogate pair, a variation selector (which some length counts skip). */
const CHARACTERS = ['x', 'é', '😀', 'Z', '-'];
const WIDE_CHARACTERS = [...CHARACTERS, '\uFE0F'];

export class SchemaArbitraries {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly hint: Hint,
    /** Whether a value satisfies a schema (used to keep only the values conditional constraints allow). */
    private readonly satisfies: (schema: Schema, value: unknown) => boolean,
  ) {}

  /** Values that satisfy `schema`; `location` is "<where>:<dotted path>". */
  valid(schema: Schema, location: string): fc.Arbitrary<unknown> {
    const fromSchema = () => {
      const resolved = this.resolve(schema);
      const value = this.validNonNull(resolved, location);
      return resolved.nullable || schema.nullable ? fc.oneof({ weight: 8, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) }) : value;
    };
    return this.hint(location, fromSchema) ?? fromSchema();
  }

  /** The ways to break one constraint of `schema` (none when it has nothing to break). */
  invalid(schema: Schema, location: string, options: { textual?: boolean } = {}): fc.Arbitrary<Broken>[] {
    const resolved = this.resolve(schema);
    const field = location.slice(location.indexOf(':') + 1);
    const ways: fc.Arbitrary<Broken>[] = [];
    const add = (rule: string, values: fc.Arbitrary<unknown>, at = field) => ways.push(values.map((value) => ({ value, field: at, rule })));
    const wrongType = options.textual ? null : wrongTypeValues(resolved);
    if (wrongType) add('type', wrongType);
    if (resolved.enum) {
      const allowed = resolved.enum;
      add('enum', fc.oneof(fc.constantFrom('not_one_of_them', 'X', ''), fc.string({ maxLength: 12 })).filter((v) => !allowed.includes(v)));
    } else if (resolved.type === 'string') {
      this.invalidStrings(resolved, add);
    } else if (resolved.type === 'number' || resolved.type === 'integer') {
      invalidNumbers(resolved, add);
    } else if (resolved.type === 'array' && resolved.items) {
      this.invalidArrays(resolved, location, add, ways);
    }
    if (resolved.oneOf) this.invalidOneOf(resolved, location, add, ways);
    if (resolved.properties) this.invalidObject(resolved, location, add, ways);
    return ways;
  }

  /** Follows `$ref`s, and the single-`allOf` wrapper a nullable reference is documented with. */
  private resolve(schema: Schema): Schema {
    const target = resolveRef(this.document, schema);
    if (target.allOf?.length === 1) {
      const { allOf, ...rest } = target;
      return { ...this.resolve(allOf[0]), ...(rest.nullable ? { nullable: true } : {}) };
    }
    return target;
  }

  private validNonNull(schema: Schema, location: string): fc.Arbitrary<unknown> {
    if (schema.oneOf || schema.anyOf) {
      const branches = (schema.oneOf ?? schema.anyOf)!.map((branch) => this.valid(branch, location));
      if (!schema.properties) return fc.oneof(...branches);
    }
    if (schema.enum) return fc.constantFrom(...schema.enum.filter((v) => v !== null));
    switch (schema.type) {
      case 'string':
        return this.validString(schema);
      case 'integer':
        return validIntegers(schema);
      case 'number':
        return validNumbers(schema);
      case 'boolean':
        return fc.boolean();
      case 'array': {
        const items = this.valid(schema.items ?? {}, `${location}.0`);
        const min = schema.minItems ?? 0;
        const max = schema.maxItems ?? min + 4;
        return fc.oneof(
          { weight: 4, arbitrary: fc.array(items, { minLength: min, maxLength: Math.min(max, min + 4) }) },
          { weight: 1, arbitrary: fc.array(items, { minLength: max, maxLength: max }) },
        );
      }
      default:
        if (schema.properties) return this.validObject(schema, location);
        return fc.constant({});
    }
  }

  private validObject(schema: Schema, location: string): fc.Arbitrary<unknown> {
    const required = schema.required ?? [];
    const model = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, this.valid(property, join(location, name))]));
    const objects = fc.record(model, { requiredKeys: required });
    // Conditional constraints (`not`, or `oneOf`/`anyOf` beside the properties): keep what they allow.
    if (schema.not || ((schema.oneOf || schema.anyOf) && schema.properties)) return objects.filter((value) => this.satisfies(schema, value));
    return objects;
  }

  private validString(schema: Schema): fc.Arbitrary<string> {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? Math.max(min, MAX_GENERATED_LENGTH);
    const fits = (s: string) =>
      codePoints(s) >= min && (schema.maxLength === undefined || codePoints(s) <= max) && (schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(s));
    let values: fc.Arbitrary<string>;
    if (schema.format === 'date-time') {
      values = dateTimes();
    } else if (schema.pattern !== undefined) {
      values = fc.stringMatching(new RegExp(withoutLookarounds(schema.pattern)));
    } else {
      values = fc.oneof(
        fc.string({ minLength: min, maxLength: Math.min(max, MAX_GENERATED_LENGTH) }),
        fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, MAX_GENERATED_LENGTH) }),
      );
    }
    // The longest a string may be, written in characters of every width (UTF-16 pairs count as one).
    const longest = fc.constantFrom(...CHARACTERS).map((c) => c.repeat(max));
    return (schema.maxLength !== undefined ? fc.oneof({ weight: 5, arbitrary: values }, { weight: 1, arbitrary: longest }) : values).filter(fits);
  }

  private invalidStrings(schema: Schema, add: (rule: string, values: fc.Arbitrary<unknown>) => void): void {
    if (schema.maxLength !== undefined) add('maxLength', fc.constantFrom(...WIDE_CHARACTERS).map((c) => c.repeat(schema.maxLength! + 1)));
    if ((schema.minLength ?? 0) > 0) add('minLength', fc.constant('x'.repeat(schema.minLength! - 1)));
    if (schema.pattern !== undefined) {
      const pattern = new RegExp(schema.pattern, 'u');
      add('pattern', fc.oneof(fc.constantFrom('', ' ', 'bad value!', '..', '\t', 'UPPER case'), fc.string({ maxLength: 20 })).filter((s) => !pattern.test(s)));
    }
    if (schema.format === 'date-time') {
      add(
        'format',
        fc.constantFrom('2026-01-31', '2026-01-31T10:00:00', '2026-02-30T00:00:00Z', 'yesterday', '2026-01-31T25:00:00Z', '31/01/2026', '2026-13-01T00:00:00Z', ''),
      );
    }
  }

  private invalidArrays(schema: Schema, location: string, add: (rule: string, values: fc.Arbitrary<unknown>) => void, ways: fc.Arbitrary<Broken>[]): void {
    const items = this.valid(schema.items!, `${location}.0`);
    if (schema.maxItems !== undefined) add('maxItems', fc.array(items, { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 3 }));
    if ((schema.minItems ?? 0) > 0) add('minItems', fc.constant([]));
    const field = location.slice(location.indexOf(':') + 1);
    for (const way of this.invalid(schema.items!, `${location}.0`)) {
      ways.push(
        fc.tuple(fc.array(items, { maxLength: 2 }), way).map(([others, broken]) => ({
          value: [...others, broken.value],
          field: broken.field.replace(new RegExp(`^${escapeRegExp(field)}\\.0`), `${field}.${others.length}`),
          rule: broken.rule,
        })),
      );
    }
  }

  private invalidObject(schema: Schema, location: string, add: (rule: string, values: fc.Arbitrary<unknown>, at?: string) => void, ways: fc.Arbitrary<Broken>[]): void {
    const base = this.valid({ ...schema, nullable: false }, location) as fc.Arbitrary<Record<string, unknown>>;
    for (const name of schema.required ?? []) {
      add('required', base.map((o) => omit(o, name)), join(location, name).split(':')[1]);
      const property = this.resolve(schema.properties![name] ?? {});
      if (!property.nullable) add('required', base.map((o) => ({ ...o, [name]: null })), join(location, name).split(':')[1]);
    }
    if (schema.additionalProperties === false) {
      for (const extra of ['unexpected_field', 'x', 'Type']) {
        if (!(extra in schema.properties!)) add('additionalProperties', base.map((o) => ({ ...o, [extra]: 'value' })), join(location, extra).split(':')[1]);
      }
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      for (const way of this.invalid(property, join(location, name))) {
        ways.push(fc.tuple(base, way).map(([o, broken]) => ({ ...broken, value: { ...o, [name]: broken.value } })));
      }
    }
    // A conditional constraint broken: an optional field added or left out where the condition forbids it.
    if (schema.not) {
      // Only the fields the condition names can break it (toggling any other one never does, and a filter that
      // never passes would not end).
      const involved = namesIn(schema.not);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(name) || !involved.has(name)) continue;
        const toggled = fc.tuple(base, this.valid({ ...property, nullable: false }, join(location, name))).map(([o, value]) => (name in o ? omit(o, name) : { ...o, [name]: value }));
        add('not', toggled.filter((o) => !this.satisfies(schema, o)), join(location, name).split(':')[1]);
      }
    }
  }

  private invalidOneOf(schema: Schema, location: string, add: (rule: string, values: fc.Arbitrary<unknown>, at?: string) => void, ways: fc.Arbitrary<Broken>[]): void {
    const tag = schema.discriminator?.propertyName;
    const branches = schema.oneOf!.map((branch) => this.valid(branch, location) as fc.Arbitrary<Record<string, unknown>>);
    if (tag) {
      const at = join(location, tag).split(':')[1];
      const known = Object.keys(schema.discriminator!.mapping ?? {});
      add('discriminator', fc.tuple(fc.oneof(...branches), fc.constantFrom('close_ticket', 'OPEN_TICKET', '')).map(([o, t]) => ({ ...o, [tag]: t })).filter((o) => !known.includes(o[tag] as string)), at);
      add('required', fc.oneof(...branches).map((o) => omit(o, tag)), at);
    }
    for (const branch of schema.oneOf!) ways.push(...this.invalid(branch, location));
  }
}

/** The property names a conditional schema mentions, at any depth of its `anyOf`/`oneOf`/`allOf`/`not`. */
function namesIn(schema: unknown, out = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return out;
  const s = schema as Schema & { allOf?: unknown[] };
  for (const name of Object.keys(s.properties ?? {})) out.add(name);
  for (const name of s.required ?? []) out.add(name);
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) namesIn(branch, out);
  if (s.not) namesIn(s.not, out);
  return out;
}

function validIntegers(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum === undefined ? -1000 : schema.exclusiveMinimum ? schema.minimum + 1 : schema.minimum;
  const max = schema.maximum === undefined ? min + 1_000_000 : schema.exclusiveMaximum ? schema.maximum - 1 : schema.maximum;
  // Without a documented maximum any integer is valid, however large.
  const edges = schema.maximum === undefined ? [min, 2 ** 31, Number.MAX_SAFE_INTEGER] : [min, max];
  return fc.oneof({ weight: 4, arbitrary: fc.integer({ min, max }) }, { weight: 1, arbitrary: fc.constantFrom(...edges) });
}

function validNumbers(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1000;
  const max = schema.maximum ?? min + 1_000_000;
  const places = schema['x-max-decimal-places'] ?? (schema.multipleOf !== undefined ? Math.round(-Math.log10(schema.multipleOf)) : undefined);
  const inRange = (n: number) => (schema.exclusiveMinimum ? n > min : n >= min) && (schema.exclusiveMaximum ? n < max : n <= max);
  if (places !== undefined) {
    // Written as a client writes them (19.99, 0.57): integers of the smallest unit, divided.
    const scale = 10 ** places;
    return fc
      .oneof(
        { weight: 4, arbitrary: fc.integer({ min: Math.ceil(min * scale), max: Math.floor(max * scale) }).map((n) => n / scale) },
        { weight: 2, arbitrary: fc.constantFrom(0.07, 0.29, 0.57, 19.99, 0.01, 0.1, 348, 1234.56, min, max) },
      )
      .filter(inRange);
  }
  return fc
    .oneof(
      fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: schema.exclusiveMinimum === true, maxExcluded: schema.exclusiveMaximum === true }),
      fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) }),
      fc.constantFrom(min, max, (min + max) / 2),
    )
    .filter(inRange);
}

function invalidNumbers(schema: Schema, add: (rule: string, values: fc.Arbitrary<unknown>) => void): void {
  if (schema.type === 'integer') {
    add('integer', fc.constantFrom((schema.minimum ?? 0) + 0.5, (schema.minimum ?? 0) + 1.000001));
    // A fraction JavaScript writes with an exponent ("1e-7"): validators that count digits after a "." miss it.
    add('integer', fc.constantFrom(1e-7, 2.5e-8));
  }
  if (schema.minimum !== undefined) add('minimum', fc.constantFrom(...(schema.exclusiveMinimum ? [0, -1, -0.001] : [-1, -0.001, -1e-7])).map((d) => schema.minimum! + d));
  if (schema.maximum !== undefined) add('maximum', fc.constantFrom(...(schema.exclusiveMaximum ? [0, 1, 0.001] : [1, 0.001, 1e6])).map((d) => schema.maximum! + d));
  const places = schema['x-max-decimal-places'] ?? schema.multipleOf;
  if (places !== undefined) {
    const base = schema.minimum ?? 0;
    const rule = schema.multipleOf !== undefined ? 'multipleOf' : 'decimals';
    // One decimal more than allowed (0.005 and 19.999 for two places), at the bottom of the range and above it.
    const digits = schema['x-max-decimal-places'] ?? 2;
    const over = [5 * 10 ** -(digits + 1), 20 - 10 ** -(digits + 1)].map((d) => Number(d.toFixed(digits + 1)));
    add(rule, fc.constantFrom(...over).map((d) => base + d).filter((n) => n <= (schema.maximum ?? Infinity)));
    add(rule, fc.constantFrom(1e-7, 5e-324, 1.5e-9));
  }
}

/** Values of another JSON type than the schema's (never null: an optional field sent as null means "not given"). */
function wrongTypeValues(schema: Schema): fc.Arbitrary<unknown> | null {
  switch (schema.type) {
    case 'string':
      return fc.constantFrom<unknown>(1, true, [], {}, ['x']);
    case 'number':
    case 'integer':
      return fc.constantFrom<unknown>('1', true, {}, [1]);
    case 'boolean':
      return fc.constantFrom<unknown>('true', 1);
    case 'array':
      return fc.constantFrom<unknown>('x', 1, {});
    case 'object':
      return fc.constantFrom<unknown>('x', 1, [], true);
    default:
      return null;
  }
}

/** RFC 3339 date-times in the forms clients write them (Z, an offset, with and without fractions). */
function dateTimes(): fc.Arbitrary<string> {
  const instants = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
  return fc.tuple(instants, fc.constantFrom(0, 60, -330, 120, -720), fc.constantFrom('ms', 's', 'us')).map(([date, offsetMinutes, precision]) => {
    const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
    const clock = precision === 's' ? local.slice(0, 19) : precision === 'us' ? `${local}123` : local;
    if (offsetMinutes === 0) return `${clock}Z`;
    const sign = offsetMinutes > 0 ? '+' : '-';
    const abs = Math.abs(offsetMinutes);
    return `${clock}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  }).filter((text) => /^\d{4}-/.test(text));
}

/** fast-check cannot generate from lookarounds; the full pattern filters the values afterwards. */
function withoutLookarounds(pattern: string): string {
  return pattern.replace(/\(\?<?[!=][^()]*(\([^()]*\)[^()]*)*\)/g, '');
}

function codePoints(s: string): number {
  return [...s].length;
}

function join(location: string, name: string): string {
  return location.endsWith(':') ? `${location}${name}` : `${location}.${name}`;
}

function omit(value: Record<string, unknown>, name: string): Record<string, unknown> {
  const { [name]: _dropped, ...rest } = value;
  return rest;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
