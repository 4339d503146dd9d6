import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { request as send } from 'undici';
import { encodeRunCursor } from '../src/audit/episode-cursor';
import { Database } from '../src/database/database.service';
import { ConformanceChecker, type Finding, type Observed } from './support/openapi/conformance-check';
import { RequestPlanner, type PlannedRequest, type Role } from './support/openapi/conformance-requests';
import { mediaTypeOf, operationsOf, type OpenApiDocument, type OperationRef } from './support/openapi/openapi-model';
import { Late, SchemaArbitraries, type Hint } from './support/openapi/schema-arbitraries';
import { SchemaValidator } from './support/openapi/schema-validator';
import { ADMIN_KEY, CHAIN_KEY, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { families, familyIds } from '../src/families';

/*
 * The OpenAPI document served at /openapi.json describes the server exactly. Requests are generated from the
 * document alone, for every operation it lists: schema-valid ones (real episode ids and ticket ids where the
 * schema names fields whose valid values are server state, so they reach deep code) and schema-invalid ones (one
 * documented constraint broken: a body or parameter rule, the credentials, the Host, the body's media type,
 * syntax or size). Every answer must have a status the operation documents, a content type that status
 * documents, and a body its schema accepts (objects closed: an undocumented field is a finding too); invalid
 * requests are refused with the status their rule gets, naming the field; valid ones are never refused for
 * their shape. Then the rate limits (429 on every operation) and a closed database (503) are checked the same
 * way. Findings are collected over the whole run and reported together.
 * CONFORMANCE_RUNS (default 300: about 7 requests an operation, within npm test's time budget; CI runs it again
 * at 3000) and CONFORMANCE_SEED (default fixed; "random" for a new one) tune it.
 */

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 300);
const SEED = process.env.CONFORMANCE_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.CONFORMANCE_SEED ?? 20260501);
const BODY_LIMIT_BYTES = 65_536;

type App = Awaited<ReturnType<typeof startTestApp>>;

interface Server {
  ctx: App;
  base: string;
  document: OpenApiDocument;
  keys: Record<Exclude<Role, 'none'>, string>;
  pools: Record<string, unknown[]>;
  checker: ConformanceChecker;
}

const findings: Finding[] = [];
const statusesByOperation = new Map<string, Map<number, number>>();
let requestsSent = 0;
const servers: Server[] = [];

afterAll(async () => {
  for (const server of servers) await server.ctx.app.close();
  if (process.env.CONFORMANCE_REPORT) writeFileSync(process.env.CONFORMANCE_REPORT, JSON.stringify(findings, null, 1));
  const covered = [...statusesByOperation.entries()].map(([op, statuses]) => `  ${op}: ${[...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
  process.stdout.write(`\nopenapi conformance: ${requestsSent} requests over ${statusesByOperation.size} operations (seed ${SEED})\n${covered.join('\n')}\n`);
});

async function startServer(overrides: Record<string, string>): Promise<Server> {
  const ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY, BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES), ...overrides });
  await ctx.app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  const document = (await (await send(`${base}/openapi.json`)).body.json()) as OpenApiDocument;
  const server: Server = { ctx, base, document, keys: { agent: '', reader: '', admin: ADMIN_KEY }, pools: {}, checker: new ConformanceChecker(new SchemaValidator(document, { closedObjects: true }), new SchemaValidator(document, { closedObjects: false })) };
  servers.push(server);
  return server;
}

/** Episodes, tickets, tenants, spare keys, cursors and an MCP session to aim generated requests at. */
async function seedState(server: Server): Promise<void> {
  const { key, readerKey } = await tenantWithKey(server.ctx.http, 'conformance-a');
  server.keys.agent = key;
  server.keys.reader = readerKey;
  const other = await tenantWithKey(server.ctx.http, 'conformance-b');
  await tenantWithKey(server.ctx.http, 'conformance-spare');
  const pools: Record<string, unknown[]> = { episodes: [], foreignEpisodes: [], tickets: [], tenants: ['conformance-a', 'conformance-b', 'conformance-spare'], spareKeys: [], cursors: [], runCursors: [encodeRunCursor({ createdAt: new Date(), id: 'run-from-before' })], mcpSessions: [] };
  server.pools = pools;
  const json = { 'content-type': 'application/json' };
  for (const taskId of new Set(families().map((f) => f.id))) {
    for (const [agentKey, pool] of [[key, pools.episodes], [other.key, pools.foreignEpisodes]] as const) {
      const res = await send(`${server.base}/reset`, { method: 'POST', headers: { ...json, authorization: `Bearer ${agentKey}` }, body: JSON.stringify({ task_id: taskId, seed: 5, tags: ['conformance'] }) });
      const started = (await res.body.json()) as { episode_id: string; observation: { inbox: { ticket_id: string }[] } };
      if (res.statusCode !== 200) continue; // over the rate limit of a rate-limited server
      pool.push(started.episode_id);
      for (const t of started.observation.inbox) if (!pools.tickets.includes(t.ticket_id)) pools.tickets.push(t.ticket_id);
    }
  }
  for (let i = 0; i < 8; i++) {
    const res = await send(`${server.base}/admin/tenants/conformance-spare/keys`, { method: 'POST', headers: { ...json, authorization: `Bearer ${ADMIN_KEY}` }, body: JSON.stringify({ name: `spare-${i}` }) });
    pools.spareKeys.push({ slug: 'conformance-spare', id: ((await res.body.json()) as { id: string }).id });
  }
  const page = (await (await send(`${server.base}/episodes?limit=1`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).body.json()) as { next_cursor?: string };
  if (typeof page.next_cursor === 'string') pools.cursors.push(page.next_cursor);
  for (let i = 0; i < 12; i++) {
    const init = await send(`${server.base}/mcp`, {
      method: 'POST',
      headers: { ...json, accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
      body: JSON.stringify(MCP_MESSAGES[0]),
    });
    await init.body.text();
    if (typeof init.headers['mcp-session-id'] === 'string') pools.mcpSessions.push(init.headers['mcp-session-id']);
  }
}

/** JSON-RPC messages an MCP client sends; the generator mixes them with what the schema alone gives. */
const MCP_MESSAGES = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'conformance', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  { jsonrpc: '2.0', id: 'three', method: 'ping' },
  { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'view_inbox', arguments: {} } },
  { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'open_ticket', arguments: { ticket_id: 'T-1041' } } },
];

/** Where the schema names server state, the hint aims at it (mostly) or lets the schema decide. */
function hintsFor(op: OperationRef): Hint {
  const late = (pool: string, part?: string) => fc.nat().map((i) => new Late(pool, i, part));
  const mostly = (state: fc.Arbitrary<unknown>, fromSchema: () => fc.Arbitrary<unknown>) => fc.oneof({ weight: 8, arbitrary: state }, { weight: 1, arbitrary: fromSchema() });
  const id = op.operation.operationId;
  return (location, fromSchema) => {
    switch (location) {
      case 'body:episode_id':
        if (id === 'reset') return undefined; // a new episode's id
        return fc.oneof({ weight: 8, arbitrary: late('episodes') }, { weight: 1, arbitrary: late('foreignEpisodes') }, { weight: 1, arbitrary: fromSchema() });
      case 'path:episode_id':
      case 'header:x-episode-id':
        return fc.oneof({ weight: 8, arbitrary: late('episodes') }, { weight: 1, arbitrary: late('foreignEpisodes') }, { weight: 1, arbitrary: fromSchema() });
      case 'body:action.ticket_id':
        return mostly(late('tickets'), fromSchema);
      case 'path:task_id':
        return mostly(fc.constantFrom(...familyIds()), fromSchema);
      case 'path:slug':
        return id === 'revokeApiKey' ? mostly(late('spareKeys', 'slug'), fromSchema) : mostly(late('tenants'), fromSchema);
      case 'path:key_id':
        return mostly(late('spareKeys', 'id'), fromSchema);
      case 'query:cursor':
        // Each listing takes its own cursors (an episode listing's carries a serial, a run listing's a run id).
        return late(id === 'listRuns' ? 'runCursors' : 'cursors');
      case 'query:tenant':
        return mostly(late('tenants'), fromSchema);
      case 'header:mcp-session-id':
        return mostly(late('mcpSessions'), fromSchema);
      case 'body:':
        return op.path === '/mcp' ? mostly(fc.constantFrom(...MCP_MESSAGES), fromSchema) : undefined;
      default:
        return undefined;
    }
  };
}

/**
 * The planned requests of a run, in a seeded interleaving: every operation gets a share, larger for operations
 * with more documented constraints to keep and break (a step's six actions), so each rule is exercised.
 */
function plan(server: Server, runs: number, seed: number, kinds: 'both' | 'valid' = 'both'): PlannedRequest[] {
  const requestValidator = new SchemaValidator(server.document, { closedObjects: false });
  const ops = operationsOf(server.document);
  const planners = ops.map((op) => {
    const schemas = new SchemaArbitraries(server.document, hintsFor(op), (schema, value) => requestValidator.problems(schema, value) === null);
    const body = op.operation.requestBody?.content['application/json']?.schema;
    const constraints = (body ? schemas.invalid(body, 'body:').length : 0) + (op.operation.parameters?.length ?? 0);
    return { op, planner: new RequestPlanner(server.document, schemas, BODY_LIMIT_BYTES), weight: Math.min(4, 1 + constraints / 15) };
  });
  const total = planners.reduce((sum, p) => sum + p.weight, 0);
  const planned = planners.flatMap(({ op, planner, weight }, i) => {
    const share = Math.max(1, Math.round((runs * weight) / total));
    return fc.sample(kinds === 'valid' ? planner.valid(op) : planner.requests(op), { seed: seed + i, numRuns: share });
  });
  return fc.sample(fc.shuffledSubarray(planned, { minLength: planned.length }), { seed, numRuns: 1 })[0];
}

/** Takes the Late values from the pools (sharing one index between a key's slug and id), then sends. */
async function execute(server: Server, planned: PlannedRequest): Promise<Observed> {
  const resolved = resolveLate(server, planned);
  const { op } = resolved;
  const url = new URL(server.base + op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(resolved.path[name]))));
  for (const [name, value] of Object.entries(resolved.query)) if (value !== null && value !== undefined) url.searchParams.append(name, String(value));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(resolved.headers)) if (value !== null && value !== undefined) headers[name] = String(value);
  Object.assign(headers, credentialHeaders(server, resolved));
  if (resolved.host) headers.host = resolved.host;
  if (op.path === '/mcp') headers.accept ??= 'application/json, text/event-stream';
  let body: string | undefined;
  if (resolved.body && 'json' in resolved.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(resolved.body.json);
  } else if (resolved.body) {
    headers['content-type'] = resolved.body.contentType;
    body = resolved.body.raw;
  } else if (op.method === 'post') {
    headers['content-type'] = 'application/json';
  }
  const res = await send(url, { method: op.method.toUpperCase() as 'GET', headers, body });
  const contentType = res.headers['content-type'] as string | undefined;
  let text: string | null = null;
  if (mediaTypeOf(contentType) === 'text/event-stream') res.body.destroy();
  else text = await res.body.text();
  requestsSent++;
  const name = `${op.method.toUpperCase()} ${op.path}`;
  const statuses = statusesByOperation.get(name) ?? new Map<number, number>();
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  statusesByOperation.set(name, statuses);
  const observed = { status: res.statusCode, contentType, text };
  collect(server, resolved, observed, res.headers);
  return observed;
}

/** As execute, but a transport failure (a reset connection, a hang-up) names the request that caused it. */
async function executeNamed(server: Server, planned: PlannedRequest): Promise<Observed> {
  try {
    return await execute(server, planned);
  } catch (error) {
    const { op, path, query, credential, body } = resolveLate(server, planned);
    const sent = JSON.stringify({ path, query, credential, body }).slice(0, 2000);
    throw new Error(`${op.method.toUpperCase()} ${op.path} failed in transport (${(error as Error).message}): ${sent}`);
  }
}

function resolveLate(server: Server, planned: PlannedRequest): PlannedRequest {
  const slug = planned.path.slug;
  const shared = slug instanceof Late && slug.pool === 'spareKeys' ? slug.index : null;
  const take = (value: unknown): unknown => {
    if (value instanceof Late) {
      const pool = server.pools[value.pool];
      if (pool.length === 0) return 'nothing-in-this-pool';
      const recent = Math.min(pool.length, 24);
      const index = value.pool === 'spareKeys' && shared !== null ? shared : value.index;
      const item = pool[pool.length - 1 - (index % recent)] as Record<string, unknown> | string;
      return value.part ? (item as Record<string, unknown>)[value.part] : item;
    }
    if (Array.isArray(value)) return value.map(take);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, take(v)]));
    return value;
  };
  return {
    ...planned,
    path: take(planned.path) as Record<string, unknown>,
    query: take(planned.query) as Record<string, unknown>,
    headers: take(planned.headers) as Record<string, unknown>,
    body: planned.body && 'json' in planned.body ? { json: take(planned.body.json) } : planned.body,
  };
}

function credentialHeaders(server: Server, request: PlannedRequest): Record<string, string> {
  const { role, scheme } = request.credential;
  if (role === 'none') return {};
  if (role === 'malformed') return { authorization: 'Token not-a-scheme' };
  const key = role === 'unknown-key' ? 'sdk_unknownUnknownUnknownUnknownUnknown0123' : server.keys[role];
  const definition = server.document.components.securitySchemes?.[scheme!] as { type: string; scheme?: string; in?: string; name?: string };
  if (definition.type === 'http' && definition.scheme === 'bearer') return { authorization: `Bearer ${key}` };
  if (definition.type === 'http' && definition.scheme === 'basic') return { authorization: `Basic ${Buffer.from(`conformance:${key}`).toString('base64')}` };
  if (definition.type === 'apiKey' && definition.in === 'header') return { [definition.name!.toLowerCase()]: key };
  throw new Error(`security scheme ${scheme} is not one this test can send`);
}

/** Checks the answer, and keeps what it created for later requests to aim at. */
function collect(server: Server, request: PlannedRequest, observed: Observed, headers: Record<string, unknown>): void {
  findings.push(...server.checker.check(request, observed));
  if (observed.status !== 200 || observed.text === null) return;
  const id = request.op.operation.operationId;
  const body = safeJson(observed.text) as Record<string, any> | null;
  if (!body) return;
  const pools = server.pools;
  if (id === 'reset' && request.credential.role === 'agent') pools.episodes.push(body.episode_id);
  if (id === 'createTenant') pools.tenants.push(body.slug);
  if (id === 'issueApiKey') pools.spareKeys.push({ slug: body.tenant, id: body.id });
  if (id === 'listEpisodes' && typeof body.next_cursor === 'string') pools.cursors.push(body.next_cursor);
  if (id === 'listRuns' && typeof body.next_cursor === 'string') pools.runCursors.push(body.next_cursor);
  if (request.op.path === '/mcp' && typeof headers['mcp-session-id'] === 'string') pools.mcpSessions.push(headers['mcp-session-id']);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function summary(from: number): string {
  const byKind = new Map<string, Finding[]>();
  for (const f of findings.slice(from)) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
  return [...byKind.entries()]
    .map(([kind, list]) => {
      const operations = [...new Set(list.map((f) => f.operation))];
      const examples = [...new Map(list.map((f) => [`${f.operation}|${f.detail.slice(0, 60)}`, f])).values()].slice(0, 6);
      return `${kind}: ${list.length} (${operations.length} operations)\n${examples.map((f) => `    ${f.operation}: ${f.detail.slice(0, 500)}`).join('\n')}`;
    })
    .join('\n');
}

describe('the OpenAPI document describes the server exactly', () => {
  let keyed: Server;

  beforeAll(async () => {
    keyed = await startServer({ REQUIRE_API_KEY: 'true', RATE_LIMIT_PER_MINUTE: '0', AUTH_FAILURES_PER_MINUTE: '0', BASELINE_RUNS_PER_HOUR: '0' });
    await seedState(keyed);
  });

  it(`${RUNS} generated requests over every operation (keys required)`, async () => {
    const before = findings.length;
    // Every operation says which keys may call it, so valid requests can carry the right one.
    expect(operationsOf(keyed.document).filter((op) => !op.operation['x-access']).map((op) => op.path)).toEqual([]);
    const planned = plan(keyed, RUNS, SEED);
    const ops = new Set(planned.map((r) => `${r.op.method} ${r.op.path}`));
    expect(ops.size).toBe(operationsOf(keyed.document).length);
    for (const request of planned) await executeNamed(keyed, request);
    const kinds = planned.reduce((n, r) => n + (r.kind === 'valid' ? 1 : 0), 0);
    process.stdout.write(`\nkeys required: ${planned.length} requests (${kinds} valid, ${planned.length - kinds} invalid) over ${ops.size} operations\n`);
    expect(summary(before)).toBe('');
  }, 300_000);

  it('every documented example is a body of its own status, valid against its schema', () => {
    const validator = new SchemaValidator(keyed.document, { closedObjects: true });
    const problems: string[] = [];
    let examples = 0;
    for (const { method, path, operation } of operationsOf(keyed.document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [mediaType, content] of Object.entries(response.content ?? {})) {
          if (content.example === undefined) continue;
          examples++;
          const where = `${method.toUpperCase()} ${path} ${status} ${mediaType}`;
          const invalid = validator.problems(content.schema ?? {}, content.example);
          if (invalid) problems.push(`${where}: ${invalid}`);
          const body = content.example as { statusCode?: number };
          if (Number(status) >= 400 && body.statusCode !== Number(status)) problems.push(`${where}: the example is a ${body.statusCode}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(examples).toBeGreaterThan(operationsOf(keyed.document).length * 3);
  });

  it('a closed database: every operation answers a documented status (503 where it needs the database)', async () => {
    const before = findings.length;
    await keyed.ctx.app.get(Database).onApplicationShutdown();
    const planned = plan(keyed, operationsOf(keyed.document).length * 2, SEED + 7, 'valid');
    const statuses = new Set<number>();
    for (const request of planned) statuses.add((await execute(keyed, request)).status);
    expect(statuses.has(503)).toBe(true);
    expect(summary(before)).toBe('');
  }, 60_000);

  it('over the rate limits (open mode): every operation answers a documented 429', async () => {
    const before = findings.length;
    const open = await startServer({ RATE_LIMIT_PER_MINUTE: '2', AUTH_FAILURES_PER_MINUTE: '1' });
    await seedState(open);
    const limited = new Set<string>();
    const ops = operationsOf(open.document);
    // Valid requests until the tenant's (and the address's) budget is spent…
    for (const request of plan(open, ops.length * 3, SEED + 11, 'valid')) {
      if ((await execute(open, request)).status === 429) limited.add(request.op.operation.operationId);
    }
    // …then failed authentications past their limit (an unknown key, twice), after which a failing key gets 429
    // from this address on every route that looks at keys, the admin's included (the admin key itself, which no
    // limit applies to, is still served).
    const unknownKey = { kind: 'invalid', rule: 'security', field: '', credential: { role: 'unknown-key', scheme: 'bearer' } } as const;
    const adminOnly = (r: PlannedRequest) => r.op.operation['x-access'] === 'admin' || r.op.operation['x-access'] === 'metrics';
    const [admin] = plan(open, ops.length, SEED + 13, 'valid').filter(adminOnly);
    for (let i = 0; i < 2; i++) {
      const refused = await execute(open, { ...admin, ...unknownKey });
      if (refused.status === 429) limited.add(admin.op.operation.operationId);
    }
    for (const request of plan(open, ops.length, SEED + 17, 'valid')) {
      // No limit applies to the admin key: on an admin route a failing key stands in for it, on an audit route the
      // reader key (else whether an audit route is seen limited depends on the credential the plan happened to draw).
      const asReader = request.credential.role === 'admin' ? { ...request, credential: { ...request.credential, role: 'reader' as const } } : request;
      const sent = adminOnly(request) ? { ...request, ...unknownKey } : asReader;
      if ((await execute(open, sent)).status === 429) limited.add(request.op.operation.operationId);
    }
    // Every operation that documents a 429 answers one (the health probe is never limited, and documents none).
    const documented = ops.filter((op) => '429' in op.operation.responses);
    expect(ops.length - documented.length).toBe(1);
    expect(documented.map((op) => op.operation.operationId).filter((id) => !limited.has(id))).toEqual([]);
    expect(summary(before)).toBe('');
  }, 120_000);
});
