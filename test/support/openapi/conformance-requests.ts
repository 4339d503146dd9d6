import fc from 'fast-check';
import { Late, SchemaArbitraries, type Broken } from './schema-arbitraries';
import type { OpenApiDocument, OperationRef, Parameter, Schema } from './openapi-model';

/*
 * Requests built from an operation's documentation alone: its parameters, its request body and its security.
 * A valid request satisfies all of them; an invalid one breaks exactly one documented constraint (a body or
 * parameter rule, the credentials, the Host, the body's media type, syntax or size) and says which.
 */

export type Role = 'agent' | 'reader' | 'admin' | 'none';

export interface Credential {
  /** Whose key (or none). */
  role: Role | 'unknown-key' | 'malformed';
  /** Security scheme used to send it. */
  scheme: string | null;
}

export interface PlannedRequest {
  op: OperationRef;
  kind: 'valid' | 'invalid';
  /** For invalid requests: the constraint broken and the field it concerns ("" when not a field). */
  rule?: string;
  field?: string;
  /** The value that breaks it (for the report). */
  brokenValue?: unknown;
  /** Where the broken constraint lives, to check the refusal names it. */
  where?: 'body' | 'query' | 'header' | 'path' | 'request';
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body?: { json: unknown } | { raw: string; contentType: string };
  credential: Credential;
  host?: string;
}

/** The access rule an operation documents (`x-access`) → which keys may call it. */
const ROLES_OF_ACCESS: Record<string, Role[]> = {
  public: ['none'],
  catalogue: ['agent', 'reader', 'admin'],
  agent: ['agent'],
  episode: ['agent', 'reader'],
  audit: ['reader', 'admin'],
  admin: ['admin'],
  metrics: ['admin'],
};
/** A key that is valid but not allowed on a route of this access rule (403). */
const WRONG_ROLES_OF_ACCESS: Record<string, Role[]> = {
  public: [],
  catalogue: [],
  agent: ['reader', 'admin'],
  episode: ['admin'],
  audit: ['agent'],
  admin: ['agent', 'reader'],
  metrics: ['agent', 'reader'],
};

const NOT_NUMBERS = ['', ' ', 'abc', 'NaN', 'Infinity', '1,5', '0x10', '1e', '--1', '١'];

export class RequestPlanner {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly schemas: SchemaArbitraries,
    /** Body size past the server's limit (413). */
    private readonly oversizeBytes: number,
  ) {}

  requests(op: OperationRef): fc.Arbitrary<PlannedRequest> {
    return fc.oneof(this.valid(op), this.invalid(op));
  }

  valid(op: OperationRef): fc.Arbitrary<PlannedRequest> {
    return fc
      .record({
        path: this.parameterValues(op, 'path', true),
        query: this.parameterValues(op, 'query', false),
        headers: this.parameterValues(op, 'header', false),
        body: this.validBody(op),
        credential: this.validCredential(op),
      })
      // A body past the server's size limit is refused for its size (413), whatever its shape: not a valid request here.
      .filter((parts) => parts.body === undefined || !('json' in parts.body) || Buffer.byteLength(JSON.stringify(parts.body.json)) < this.oversizeBytes)
      .map((parts) => ({ op, kind: 'valid' as const, ...parts }));
  }

  invalid(op: OperationRef): fc.Arbitrary<PlannedRequest> {
    const valid = this.valid(op);
    const categories: fc.WeightedArbitrary<PlannedRequest>[] = [];
    const bodySchema = op.operation.requestBody?.content['application/json']?.schema;
    if (bodySchema) {
      const ways = this.schemas.invalid(bodySchema, 'body:');
      if (op.operation.requestBody?.required) ways.push(fc.constant({ value: undefined, field: '', rule: 'required' }));
      if (ways.length > 0) {
        categories.push({ weight: 6, arbitrary: fc.tuple(valid, fc.oneof(...ways)).map(([r, b]) => broken(r, b, 'body', { body: b.value === undefined ? undefined : { json: b.value } })) });
      }
      categories.push({
        weight: 1,
        arbitrary: fc.tuple(
          valid,
          fc.constantFrom(
            { rule: 'content-type', raw: 'task_id=x&seed=1', contentType: 'text/plain' },
            { rule: 'content-type', raw: '<reset/>', contentType: 'application/xml' },
            { rule: 'json', raw: '{"episode_id": ', contentType: 'application/json' },
            { rule: 'json', raw: '{"a": 1}}', contentType: 'application/json' },
            { rule: 'size', raw: `{"padding": "${'x'.repeat(this.oversizeBytes)}"}`, contentType: 'application/json' },
          ),
        ).map(([r, { rule, raw, contentType }]) => ({ ...r, kind: 'invalid' as const, rule, field: '', where: 'request' as const, body: { raw, contentType } })),
      });
    }
    for (const where of ['query', 'header'] as const) {
      const ways = this.parameters(op, where).flatMap((p) => this.invalidParameter(p));
      if (ways.length > 0) {
        categories.push({
          weight: 4,
          arbitrary: fc.tuple(valid, fc.oneof(...ways)).map(([r, b]) => broken(r, b, where, where === 'query' ? { query: withValue(r.query, b.field, b.value) } : { headers: withValue(r.headers, b.field, b.value) })),
        });
      }
    }
    const credentials = this.invalidCredentials(op);
    if (credentials) categories.push({ weight: 2, arbitrary: fc.tuple(valid, credentials).map(([r, credential]) => ({ ...r, kind: 'invalid' as const, rule: 'security', field: '', where: 'request' as const, credential })) });
    categories.push({
      weight: 1,
      arbitrary: fc.tuple(valid, fc.constantFrom('evil.example', 'attacker.test:7860', 'localhost.evil.example')).map(([r, host]) => ({ ...r, kind: 'invalid' as const, rule: 'host', field: '', where: 'request' as const, host })),
    });
    return fc.oneof(...categories);
  }

  private parameters(op: OperationRef, where: Parameter['in']): Parameter[] {
    return (op.operation.parameters ?? []).filter((p) => p.in === where);
  }

  private parameterValues(op: OperationRef, where: Parameter['in'], allRequired: boolean): fc.Arbitrary<Record<string, unknown>> {
    const parameters = this.parameters(op, where);
    const model = Object.fromEntries(
      parameters.map((p) => {
        const values = this.schemas.valid(p.schema, `${where}:${p.name}`);
        // A path segment is never empty, "." or ".." (a URL resolves those away before it is sent); a header
        // carries visible ASCII only.
        if (where === 'path') return [p.name, values.filter((v) => v instanceof Late || !['', '.', '..'].includes(String(v)))];
        if (where === 'header') return [p.name, values.filter((v) => v instanceof Late || v === null || /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(String(v)))];
        return [p.name, values];
      }),
    );
    return fc.record(model, { requiredKeys: parameters.filter((p) => allRequired || p.required).map((p) => p.name) });
  }

  private invalidParameter(parameter: Parameter): fc.Arbitrary<Broken>[] {
    const schema = resolveSchema(this.document, parameter.schema);
    // In a query string or a header every value is text: a wrong type there is text that is not a number.
    const ways = this.schemas.invalid(parameter.schema, `${parameter.in}:${parameter.name}`, { textual: true });
    if (schema.type === 'number' || schema.type === 'integer') {
      ways.push(fc.constantFrom(...NOT_NUMBERS).map((value) => ({ value, field: parameter.name, rule: 'type' })));
    }
    if (parameter.required) ways.push(fc.constant({ value: undefined, field: parameter.name, rule: 'required' }));
    return ways;
  }

  private validBody(op: OperationRef): fc.Arbitrary<PlannedRequest['body']> {
    const body = op.operation.requestBody;
    const schema = body?.content['application/json']?.schema;
    if (!schema) return fc.constant(undefined);
    const values = this.schemas.valid(schema, 'body:').map((json) => ({ json }));
    return body.required ? values : fc.oneof({ weight: 6, arbitrary: values }, { weight: 1, arbitrary: fc.constant(undefined) });
  }

  /** Credentials the operation documents: one of its security alternatives, with a key its access rule admits. */
  private validCredential(op: OperationRef): fc.Arbitrary<Credential> {
    const alternatives = op.operation.security ?? [];
    const roles = ROLES_OF_ACCESS[op.operation['x-access'] ?? 'missing'] ?? ['none'];
    if (alternatives.length === 0) return fc.constant({ role: 'none', scheme: null });
    return fc.tuple(fc.constantFrom(...alternatives), fc.constantFrom(...roles)).map(([alternative, role]) => {
      const scheme = Object.keys(alternative)[0] ?? null;
      return scheme === null ? { role: 'none', scheme: null } : { role, scheme };
    });
  }

  /** Credentials the operation's security refuses: none where one is required, an unknown key, a malformed header, a key of the wrong scope. */
  private invalidCredentials(op: OperationRef): fc.Arbitrary<Credential> | null {
    const alternatives = op.operation.security ?? [];
    if (alternatives.length === 0 || alternatives.some((a) => Object.keys(a).length === 0)) return null;
    const schemes = alternatives.map((a) => Object.keys(a)[0]);
    const wrongRoles = WRONG_ROLES_OF_ACCESS[op.operation['x-access'] ?? 'missing'] ?? [];
    const options: Credential[] = [
      { role: 'none', scheme: null },
      ...schemes.map((scheme) => ({ role: 'unknown-key' as const, scheme })),
      { role: 'malformed', scheme: null },
      ...wrongRoles.flatMap((role) => schemes.map((scheme) => ({ role, scheme }))),
    ];
    return fc.constantFrom(...options);
  }
}

function broken(request: PlannedRequest, b: Broken, where: PlannedRequest['where'], change: Partial<PlannedRequest>): PlannedRequest {
  return { ...request, ...change, kind: 'invalid', rule: b.rule, field: b.field, where, brokenValue: where === 'body' ? undefined : b.value };
}

function withValue(values: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  const { [name]: _old, ...rest } = values;
  return value === undefined ? rest : { ...rest, [name]: value };
}

function resolveSchema(document: OpenApiDocument, schema: Schema): Schema {
  let current = schema;
  while (current.$ref) current = document.components.schemas[current.$ref.replace('#/components/schemas/', '')];
  if (current.allOf?.length === 1) return resolveSchema(document, current.allOf[0]);
  return current;
}
