import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ACCESS_DESCRIPTIONS, ACCESS_EXTENSION, API_KEY_SCHEME, BASIC_SCHEME, BEARER_SCHEME, type AccessLevel } from '../access/access.decorator';
import { PROBE_PATH } from '../access/probe-path';
import { errorResponseObject } from '../common/api-errors.decorator';
import { JSON_RPC_EXTENSION, JSON_RPC_SCHEMAS } from '../common/api-json-rpc.decorator';
import { APP_VERSION } from '../common/app-version';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RESOLUTION_CODES, RESOLUTIONS_ALLOWING_AMOUNT, RESOLUTIONS_REQUIRING_AMOUNT } from '../engine/vocabulary';
import { MAX_RUN_CELLS, MAX_TRIALS, mostRunSeeds } from '../common/run-limits';
import { catalogueTasks, inCatalogueOrder } from '../tasks/task-files';

const DESCRIPTION =
  'SupportDesk is a deterministic, persisted customer-support environment for training and evaluating agents. ' +
  'Reset an episode on a task, step it with typed actions, and read observations, partial-progress rewards and ' +
  'an explained grade.\n\nEvery error has one body (`ErrorBody`); every operation lists each status it can answer, ' +
  'including those of the HTTP layer: 401/403 (keys, and a Host or browser Origin not in ALLOWED_HOSTS), 429 (rate ' +
  'limits), 400/413/415 (bodies), 400/414/431/408 (a malformed or oversized URL or headers, a request too slow to arrive), 503 ' +
  '(the database busy, the server shutting down, or its connections all busy).';

type Operation = {
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
  requestBody?: { required?: boolean; content: Record<string, { schema?: { $ref?: string } }> };
  description?: string;
  [ACCESS_EXTENSION]?: AccessLevel;
  [JSON_RPC_EXTENSION]?: boolean;
};
type Schemas = Record<string, SchemaNode>;
type SchemaNode = {
  type?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  additionalProperties?: boolean | SchemaNode;
  enum?: unknown[];
  maxLength?: number;
  maxItems?: number;
  maximum?: number;
  description?: string;
  oneOf?: SchemaNode[];
  not?: unknown;
  $ref?: string;
  [key: string]: unknown;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Builds the OpenAPI document from the app's controllers and DTOs, then states what the HTTP layer does to every
 * route (security, the statuses of its hooks) and what this server's configuration and task catalogue decide
 * (length limits, task ids, anonymous access in open mode). Request schemas are closed
 * (`additionalProperties: false`) because the validation pipe rejects unknown fields.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = app.get<AppConfig>(APP_CONFIG);
  const builder = new DocumentBuilder()
    .setTitle('SupportDesk')
    .setDescription(DESCRIPTION)
    .setVersion(APP_VERSION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'The server this document was fetched from')
    .addSecurity(BEARER_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key (a tenant key "sdk_…", or the admin key) as a bearer token. Keys are opaque strings, not JWTs.',
    })
    .addSecurity(API_KEY_SCHEME, { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The same key in a header.' })
    .addSecurity(BASIC_SCHEME, {
      type: 'http',
      scheme: 'basic',
      description: 'HTTP Basic with the key as the password (the user name is ignored), as clients send for a base URL http://user:KEY@host.',
    });
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (_controller: string, method: string) => method,
  });
  const schemas = (document.components!.schemas ??= {}) as Schemas;
  Object.assign(schemas, structuredClone(JSON_RPC_SCHEMAS));
  const requestSchemas = requestSchemaNames(document);
  closeRequestSchemas(schemas, requestSchemas);
  markOptionalFieldsNullable(schemas, requestSchemas);
  declareAmountRule(schemas);
  declareInstanceRules(schemas, config);
  declareRunCellRules(schemas);
  applyConfiguredLimits(schemas, config);
  applyTaskCatalogue(schemas, config);
  declareRunRules(schemas, config);
  declareHttpLayer(document, config);
  return document;
}

/**
 * What the HTTP layer does before (and around) every route, stated on each operation with an example of each
 * status: the Host/Origin allow-list (403) and the rate limiter (429) everywhere; on routes that take a key, the
 * key check (401, 403 for a key of the wrong scope) and the database behind it (503); on routes that read a body
 * (DELETE too: the platform reads one if it is sent), the body parser (400, 413, 415). Everywhere, what Node and
 * the router refuse before a route is known: a malformed URL (400), a path segment over 100 characters (414, on
 * routes with path parameters), headers over 16 KB (431), a request too slow to arrive (408), and the connection
 * caps (503). In open mode a request without a key is the public tenant, so the security of tenant routes allows
 * none.
 */
function declareHttpLayer(document: OpenAPIObject, config: AppConfig): void {
  for (const [path, method, operation] of operationsWithPaths(document)) {
    const access = operation[ACCESS_EXTENSION];
    if (!access) throw new Error(`an operation has no ${ACCESS_EXTENSION}: every route declares @Access`);
    const secured = access !== 'public';
    const keys: Record<string, string[]>[] = [{ [BEARER_SCHEME]: [] }, { [API_KEY_SCHEME]: [] }, { [BASIC_SCHEME]: [] }];
    operation.security = !secured ? [] : keyOptional(access, config) ? [...keys, {}] : keys;
    operation.description = [operation.description, ACCESS_DESCRIPTIONS[access]].filter(Boolean).join('\n\n');
    const add = (status: number, description?: string) => {
      operation.responses[String(status)] ??= errorResponseObject(status, description);
    };
    if (secured) {
      add(401);
      add(
        403,
        'The key may not use this route (a reader key on a run, an agent key on an audit, a tenant key on /admin or /metrics, the admin key on an episode), ' +
          'or the Host header or a browser Origin is not allowed (ALLOWED_HOSTS, ALLOWED_ORIGINS)',
      );
      add(429, 'Over the tenant’s rate limit (RATE_LIMIT_PER_MINUTE), or a failing key from an address with too many failed authentications; `Retry-After` says when to come back');
      add(503, `${errorResponseObject(503).description}; or every connection the server may hold is busy (MAX_CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT)`);
    } else {
      add(403);
      if (path !== PROBE_PATH) add(429, 'Over the rate limit of this client address (RATE_LIMIT_PER_MINUTE); `Retry-After` says when to come back');
      add(503, 'Every connection the server may hold is busy (MAX_CONNECTIONS, MAX_CONNECTIONS_PER_CLIENT), or the server is shutting down; retry after `Retry-After`');
    }
    const malformedUrl = 'or the URL is malformed (a broken percent-encoding), or the request is not valid HTTP';
    if ((operation.requestBody || method === 'delete') && !operation[JSON_RPC_EXTENSION]) {
      const none = method === 'delete' ? ' (this route takes no body; one sent anyway is read)' : '';
      add(400, `${errorResponseObject(400).description}${none}; ${malformedUrl}`);
      add(413, `${errorResponseObject(413).description}${none}`);
      add(415, `${errorResponseObject(415).description}${none}`);
    } else {
      add(400, `The request could not be read: the URL is malformed (a broken percent-encoding), or the request is not valid HTTP`);
    }
    if (path.includes('{')) add(414);
    add(431);
    add(408);
    // An empty body is an empty object: a body whose fields are all optional may be left out.
    const body = operation.requestBody?.content['application/json']?.schema;
    const bodySchema = body?.$ref ? (document.components!.schemas as Schemas)[body.$ref.replace('#/components/schemas/', '')] : undefined;
    if (operation.requestBody && bodySchema && !(bodySchema.required ?? []).length) operation.requestBody.required = false;
  }
}

/**
 * Whether a request may leave the key out: on tenant routes in open mode (it is the public tenant), never on /admin,
 * and on /metrics only from the addresses in METRICS_ALLOW_FROM (none by default).
 */
function keyOptional(access: AccessLevel, config: AppConfig): boolean {
  if (access === 'admin') return false;
  if (access === 'metrics') return config.metricsAllowFrom.length > 0;
  return !config.requireApiKey;
}

function operationsWithPaths(document: OpenAPIObject): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => [path, method, item[method] as unknown as Operation] as [string, string, Operation]),
  );
}

/**
 * The instance rules of a reset (src/families/kit/splits.ts), stated as a `not` over the combinations refused: a
 * split with the canonical instance, a seed of the other split (the private split draws on test seeds), and dense
 * feedback on a test seed (a seed divisible by 5, or the test or private split). On a server without a private
 * split (PRIVATE_SPLIT_KEY unset) split "private" is refused too: the enum keeps the value, so generated clients
 * type it whatever server they were generated from, and this server's document says it refuses it. Null is "not
 * given", so each clause matches only given values.
 */
function declareInstanceRules(schemas: Schemas, config: AppConfig): void {
  const reset = schemas.ResetRequestDto;
  if (!reset?.properties?.split || !reset.properties.seed || !reset.properties.variant) throw new Error('ResetRequestDto lacks split, seed or variant');
  const testSeed = { type: 'integer', multipleOf: 5 };
  const trainSeed = { type: 'integer', not: { multipleOf: 5 } };
  const generated = { not: { enum: ['canonical'] } };
  reset.not = {
    anyOf: [
      { type: 'object', required: ['variant', 'split'], properties: { variant: { enum: ['canonical'] }, split: { enum: ['train', 'test', 'private'] } } },
      { type: 'object', required: ['split', 'seed'], properties: { split: { enum: ['test', 'private'] }, seed: trainSeed } },
      { type: 'object', required: ['split', 'seed'], properties: { split: { enum: ['train'] }, seed: testSeed } },
      { type: 'object', required: ['split', 'feedback'], properties: { split: { enum: ['test', 'private'] }, feedback: { enum: ['dense'] }, variant: generated } },
      { type: 'object', required: ['seed', 'feedback'], properties: { seed: testSeed, feedback: { enum: ['dense'] }, variant: generated } },
      ...(config.privateSplitKey === null ? [{ type: 'object', required: ['split'], properties: { split: { enum: ['private'] } } }] : []),
    ],
  };
}

/**
 * A reset that fills a run cell (`run_id`) leaves to the run what it decides (split, variant, feedback, agent,
 * run_label) and names a cell with task_id, seed and trial together or not at all; `trial` alone names nothing.
 * Stated as a `not` over the refused combinations, each of given fields only.
 */
function declareRunCellRules(schemas: Schemas): void {
  const reset = schemas.ResetRequestDto;
  const refused = (reset?.not as { anyOf?: unknown[] } | undefined)?.anyOf;
  if (!reset?.properties?.run_id || !reset.properties.trial || !refused) throw new Error('ResetRequestDto lacks run_id, trial or its instance rules');
  // Null is "not given": a clause names a field only with a value of its type.
  const typeOf: Record<string, string> = { run_id: 'string', split: 'string', variant: 'string', feedback: 'string', agent: 'string', run_label: 'string', task_id: 'string', seed: 'integer', trial: 'integer' };
  const given = (...fields: string[]) => ({ type: 'object', required: fields, properties: Object.fromEntries(fields.map((field) => [field, { type: typeOf[field] }])) });
  const cellFields = ['task_id', 'seed', 'trial'];
  refused.push(
    { type: 'object', required: ['trial'], not: given('run_id') },
    ...['split', 'variant', 'feedback', 'agent', 'run_label'].map((field) => given('run_id', field)),
    ...cellFields.map((field) => ({ ...given('run_id', field), not: given(...cellFields) })),
  );
}

/**
 * A run's rules beyond its fields: exactly one of `seeds` and `seed_count`; the test split takes feedback "final"
 * only and test seeds only (a split omitted is the test split), the train split train seeds only; families are this
 * server's tasks; and no run allowed here has more cells than MAX_RUN_CELLS with this server's catalogue and the
 * most trials, so the seed bounds are narrowed to that.
 */
function declareRunRules(schemas: Schemas, config: AppConfig): void {
  const run = schemas.CreateRunRequestDto;
  const seeds = run?.properties?.seeds;
  const seedCount = run?.properties?.seed_count;
  const families = run?.properties?.families;
  if (!run || !seeds || !seedCount || !families?.oneOf?.[1]?.items) throw new Error('CreateRunRequestDto lacks seeds, seed_count or families');
  const testSeed = { type: 'integer', multipleOf: 5 };
  const trainSeed = { type: 'integer', not: { multipleOf: 5 } };
  const onTestSplit = { not: { type: 'object', required: ['split'], properties: { split: { enum: ['train', 'canonical'] } } } };
  // Null is "not given": a clause names a field only with a value of its type.
  const withSeeds = { type: 'object', required: ['seeds'], properties: { seeds: { type: 'array' } } };
  const withSeedCount = { type: 'object', required: ['seed_count'], properties: { seed_count: { type: 'integer' } } };
  run.not = {
    anyOf: [
      { type: 'object', allOf: [withSeeds, withSeedCount] },
      { type: 'object', not: { anyOf: [withSeeds, withSeedCount] } },
      { type: 'object', required: ['feedback'], properties: { feedback: { enum: ['dense'] } }, ...onTestSplit },
      { type: 'object', required: ['seeds'], properties: { seeds: containing(trainSeed) }, ...onTestSplit },
      { type: 'object', required: ['split', 'seeds'], properties: { split: { enum: ['train'] }, seeds: containing(testSeed) } },
    ],
  };
  const ids = inCatalogueOrder(catalogueTasks(config.tasksDir)).map((entry) => entry.task.id);
  families.oneOf[1].items.pattern = taskIdPattern(ids);
  const mostSeeds = mostRunSeeds(ids.length);
  seeds.maxItems = Math.min(seeds.maxItems ?? mostSeeds, mostSeeds);
  seedCount.maximum = Math.min(seedCount.maximum ?? mostSeeds, mostSeeds);
  const bound = `With this server's ${ids.length} task(s) and up to ${MAX_TRIALS} trials, at most ${mostSeeds} seeds keep a run within ${MAX_RUN_CELLS} cells.`;
  for (const field of [seeds, seedCount]) field.description = [field.description, bound].filter(Boolean).join(' ');
}

/**
 * An array with at least one item of `item`'s schema: JSON Schema's `contains`, which OpenAPI 3.0 lacks, said as "not
 * every item is something else" (an empty array contains nothing).
 */
function containing(item: object): object {
  return { type: 'array', not: { type: 'array', items: { not: item } } };
}

/**
 * `amount` is required for some resolutions, optional for one and refused for the rest: stated as a `not` over
 * the combinations the validator refuses (refunds and credits without an amount, or with null, which means none;
 * an amount where none is accepted), from the same lists it uses. Validators apply it; generated types keep the
 * plain object.
 */
function declareAmountRule(schemas: Schemas): void {
  const action = schemas.ResolveTicketAction;
  if (!action?.properties?.amount) throw new Error('ResolveTicketAction.amount is not in the OpenAPI document');
  const refusing = RESOLUTION_CODES.filter((code) => !RESOLUTIONS_ALLOWING_AMOUNT.includes(code));
  const requiring = [...RESOLUTIONS_REQUIRING_AMOUNT];
  action.not = {
    anyOf: [
      {
        type: 'object',
        required: ['resolution'],
        properties: { resolution: { enum: requiring } },
        not: { type: 'object', required: ['amount'], properties: { amount: {} } },
      },
      { type: 'object', required: ['resolution', 'amount'], properties: { resolution: { enum: requiring }, amount: { not: { type: 'number' } } } },
      { type: 'object', required: ['resolution', 'amount'], properties: { resolution: { enum: refusing }, amount: { type: 'number' } } },
    ],
  };
}

/** The DTOs carry hard ceilings; this server's configured limits (MAX_*_LENGTH) are what clients must meet. */
function applyConfiguredLimits(schemas: Schemas, config: AppConfig): void {
  const set = (schema: string, property: string, maxLength: number) => {
    const target = schemas[schema]?.properties?.[property];
    if (!target) throw new Error(`${schema}.${property} is not in the OpenAPI document`);
    target.maxLength = maxLength;
  };
  set('SendReplyAction', 'message', config.maxMessageLength);
  set('SearchPolicyAction', 'query', config.maxQueryLength);
}

/**
 * Task ids are those of this server's catalogue (the registered families, or TASKS_DIR): any other is refused, so the document says which.
 * As a `pattern` of the ids rather than an `enum`: validators hold requests to exactly these ids, while clients
 * generated from the document keep typing them as strings (a new task on the server breaks no client's build).
 */
function applyTaskCatalogue(schemas: Schemas, config: AppConfig): void {
  const ids = inCatalogueOrder(catalogueTasks(config.tasksDir)).map((entry) => entry.task.id);
  const taskId = schemas.ResetRequestDto?.properties?.task_id;
  const baselineIds = schemas.BaselineRequestDto?.properties?.task_ids?.items;
  if (!taskId || !baselineIds) throw new Error('the task id fields are not in the OpenAPI document');
  const pattern = taskIdPattern(ids);
  const known = `One of this server's tasks: ${ids.join(', ')} (GET /tasks); another id is refused (422).`;
  for (const field of [taskId, baselineIds]) {
    field.pattern = pattern;
    field.description = [field.description, known].filter(Boolean).join(' ');
  }
}

/** A pattern matching exactly these task ids. */
function taskIdPattern(ids: string[]): string {
  return `^(?:${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
}

/** Schemas reachable from request bodies: what the validation pipe guards. */
function requestSchemaNames(document: OpenAPIObject): Set<string> {
  const names = new Set<string>();
  const schemas = document.components?.schemas ?? {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.replace('#/components/schemas/', '');
        if (!names.has(name)) {
          names.add(name);
          visit(schemas[name]);
        }
      } else {
        visit(value);
      }
    }
  };
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      visit((operation as { requestBody?: unknown })?.requestBody);
    }
  }
  return names;
}

/**
 * Every optional request field may also be sent as null, which means the same as leaving it out (the validation
 * pipe drops null fields before validating): documented as `nullable`, so clients generated from this document
 * and strict LLM tool schemas cut from it may send null.
 */
function markOptionalFieldsNullable(schemas: Schemas, names: Set<string>): void {
  for (const name of names) {
    const schema = schemas[name];
    if (schema?.additionalProperties === true) continue; // an open envelope (JSON-RPC), not a DTO
    for (const [field, property] of Object.entries(schema?.properties ?? {})) {
      if (schema.required?.includes(field) || field === 'type') continue;
      const target = typeof property.$ref === 'string' ? property : (property.allOf as SchemaNode[] | undefined)?.[0];
      const ref = typeof target?.$ref === 'string' ? target.$ref : null;
      if (ref === null) {
        property.nullable = true;
        continue;
      }
      // A nullable reference (OpenAPI 3.0) wraps it, with the referenced schema's type beside `nullable`.
      const referenced = schemas[ref.replace('#/components/schemas/', '')];
      const { $ref: _ref, ...rest } = property;
      schema.properties![field] = { ...rest, allOf: [{ $ref: ref }], ...(referenced?.type ? { type: referenced.type } : {}), nullable: true };
    }
  }
}

/** Closed, unless the schema says otherwise (a JSON-RPC envelope is open: its params belong to each method). */
function closeRequestSchemas(schemas: Schemas, names: Set<string>): void {
  for (const name of names) {
    const schema = schemas[name];
    if ((schema?.type === 'object' || schema?.properties) && schema.additionalProperties === undefined) schema.additionalProperties = false;
  }
}
