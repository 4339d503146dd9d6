import type { AddressInfo } from 'node:net';
import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { strictFunctionTools } from '../tools/agent/agent-runner';
import { SOLUTIONS } from './fixtures/solutions';
import { strictToolProblems, type StrictTool } from './support/strict-tool-rules';
import { openWsClient } from './support/ws-client';
import { startTestApp } from './support/test-app';

/*
 * Strict LLM tool use: every tool, on every transport that serves tools, in the strict variant passes the checker
 * of both providers' documented rules (support/strict-tool-rules.ts); the checker itself is shown to catch each
 * rule; and what a model in strict mode sends (every property, null for the ones it leaves out) is accepted.
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;

beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
});

afterAll(async () => {
  await ctx?.app.close();
});

async function sdkClient(query = '?tool_schema=strict', headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'strict-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp${query}`), { requestInit: { headers } }));
  return client;
}

async function rpc(method: string, params: Record<string, unknown>): Promise<any> {
  return (await request(ctx.http).post('/mcp').send({ jsonrpc: '2.0', id: 1, method, params }).expect(200)).body;
}

/** Every place a client gets tools from, in the strict variant, as the tools the model would be given. */
async function strictToolsByTransport(): Promise<Record<string, StrictTool[]>> {
  const fromRest = async (format: string) => (await request(ctx.http).get('/tools').query({ tool_schema: 'strict', format }).expect(200)).body.tools;
  const sdk = await sdkClient();
  const sdkTools = (await sdk.listTools()).tools;
  await sdk.close();
  const session = (await rpc('openenv/session/create', { variant: 'canonical', tool_schema: 'strict' })).result.session_id;
  const openenvTools = (await rpc('tools/list', { session_id: session })).result.tools;
  await rpc('openenv/session/close', { session_id: session });
  const ws = await openWsClient(`${base.replace('http', 'ws')}/ws`);
  const wsTools = (await ws.ask({ type: 'step', data: { type: 'list_tools', tool_schema: 'strict' } })).data.observation.tools;
  const wsMcpTools = (await ws.ask({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { tool_schema: 'strict' } } })).data.result.tools;
  ws.close();
  const actionSchema = (await request(ctx.http).get('/action_schema').expect(200)).body;
  return {
    'GET /tools format=mcp': await fromRest('mcp'),
    'GET /tools format=openai': (await fromRest('openai')).map((t: any) => ({ name: t.function.name, inputSchema: t.function.parameters })),
    'GET /tools format=anthropic': (await fromRest('anthropic')).map((t: any) => ({ name: t.name, inputSchema: t.input_schema })),
    '/mcp?tool_schema=strict (MCP SDK)': sdkTools as StrictTool[],
    '/mcp openenv/session/create tool_schema=strict': openenvTools,
    '/ws list_tools tool_schema=strict': wsTools.map((t: any) => ({ name: t.name, inputSchema: t.input_schema })),
    '/ws mcp tools/list tool_schema=strict': wsMcpTools,
    'agent runner (Chat Completions, strict: true)': strictFunctionTools(actionSchema).map((t) => ({ name: t.function.name, inputSchema: t.function.parameters })),
  };
}

describe('the checker catches each documented rule', () => {
  const valid = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
  it('accepts a schema both providers accept', () => {
    expect(strictToolProblems({ name: 'ok_tool', inputSchema: valid })).toEqual([]);
    const nullable = { type: 'object', properties: { a: { anyOf: [{ type: 'string', enum: ['x'] }, { type: 'null' }], description: 'd' } }, required: ['a'], additionalProperties: false };
    expect(strictToolProblems({ name: 'ok_tool', inputSchema: nullable })).toEqual([]);
  });

  it.each([
    ['tool-name', { name: 'has space', inputSchema: valid }],
    ['root-object', { name: 't', inputSchema: { type: 'string' } }],
    ['root-object', { name: 't', inputSchema: { ...valid, anyOf: [valid] } }],
    ['additional-properties-false', { name: 't', inputSchema: { ...valid, additionalProperties: undefined } }],
    ['all-required', { name: 't', inputSchema: { ...valid, required: [] } }],
    ['no-string-length', { name: 't', inputSchema: { ...valid, properties: { a: { type: 'string', maxLength: 5 } } } }],
    ['anthropic-no-numeric-constraints', { name: 't', inputSchema: { ...valid, properties: { a: { type: 'number', minimum: 0 } } } }],
    ['anthropic-no-numeric-constraints', { name: 't', inputSchema: { ...valid, properties: { a: { type: 'number', multipleOf: 0.01 } } } }],
    ['anthropic-limited-pattern', { name: 't', inputSchema: { ...valid, properties: { a: { type: 'string', pattern: '^(?!x)' } } } }],
    ['anthropic-type-list', { name: 't', inputSchema: { ...valid, properties: { a: { type: ['string', 'null'] } } } }],
    ['openai-no-composition', { name: 't', inputSchema: { ...valid, properties: { a: { oneOf: [{ type: 'string' }] } } } }],
    ['unsupported-keyword', { name: 't', inputSchema: { ...valid, properties: { a: { type: 'string', examples: ['x'] } } } }],
    ['unsupported-keyword', { name: 't', inputSchema: { ...valid, properties: { a: { type: 'string', default: 'x' } } } }],
    ['formats', { name: 't', inputSchema: { ...valid, properties: { a: { type: 'string', format: 'iban' } } } }],
    ['anthropic-array-constraints', { name: 't', inputSchema: { ...valid, properties: { a: { type: 'array', items: { type: 'string' }, minItems: 2 } } } }],
    ['anthropic-enum-primitives', { name: 't', inputSchema: { ...valid, properties: { a: { enum: [{ x: 1 }] } } } }],
    ['local-refs', { name: 't', inputSchema: { ...valid, properties: { a: { $ref: 'https://example.com/s.json' } } } }],
    ['types', { name: 't', inputSchema: { ...valid, properties: { a: { description: 'anything' } } } }],
    ['openai-limits', { name: 't', inputSchema: { ...valid, properties: { a: { enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } } } }],
  ])('flags %s', (rule, tool) => {
    const problems = strictToolProblems(tool as StrictTool);
    expect(problems.map((p) => p.rule)).toContain(rule);
    for (const problem of problems) expect(problem.source).toMatch(/^https:\/\/platform\.(openai|claude)\.com\//);
  });
});

describe('the strict variant passes on every transport', () => {
  it('every tool, everywhere it is served, breaks no rule of either provider', async () => {
    const byTransport = await strictToolsByTransport();
    for (const [transport, tools] of Object.entries(byTransport)) {
      expect([transport, tools.length]).toEqual([transport, transport.startsWith('agent runner') ? 6 : 8]);
      for (const tool of tools) expect([transport, tool.name, strictToolProblems(tool)]).toEqual([transport, tool.name, []]);
    }
  });

  it('the full variant would be refused (so the checker is not passing by accident)', async () => {
    const full = (await request(ctx.http).get('/tools').expect(200)).body.tools as StrictTool[];
    const rules = new Set(full.flatMap((tool) => strictToolProblems(tool).map((p) => p.rule)));
    expect([...rules].sort()).toEqual(
      expect.arrayContaining(['all-required', 'anthropic-no-numeric-constraints', 'no-string-length', 'anthropic-limited-pattern', 'unsupported-keyword']),
    );
  });

  it('constraints taken out of a strict schema are said in the description, and the server still checks them', async () => {
    const tools = (await request(ctx.http).get('/tools').query({ tool_schema: 'strict' }).expect(200)).body.tools;
    const resolve = tools.find((t: any) => t.name === 'resolve_ticket');
    expect(resolve.inputSchema.properties.amount.description).toMatch(/At least 0\. At most 1000000\./);
    const send = tools.find((t: any) => t.name === 'send_reply');
    expect(send.inputSchema.properties.message.description).toMatch(/At most 2000 characters/);
    const client = await sdkClient();
    const episode = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
    const refused: any = await client.callTool({ name: 'resolve_ticket', arguments: { resolution: 'refund_issued', amount: -5, episode_id: episode } });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/amount must not be less than 0/);
    await client.close();
  });

  it('GET /tools refuses unknown variants and formats with the service error body; /mcp with a JSON-RPC error and 400', async () => {
    const res = await request(ctx.http).get('/tools').query({ tool_schema: 'lenient', format: 'gemini' }).expect(422);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'tool_schema' }, { field: 'format' }] });
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const mcp = await request(ctx.http).post('/mcp?tool_schema=lenient').set('accept', 'application/json, text/event-stream').send(initialize).expect(400);
    expect(mcp.body).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'tool_schema must be one of: full, strict' } });
  });
});

describe('what a model in strict mode sends is accepted', () => {
  /** Every property present; the optional ones null unless the action gives them. */
  function strictArguments(tool: any, action: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(Object.keys(tool.inputSchema.properties).map((name) => [name, action[name] ?? null]));
  }

  it.each(Object.keys(SOLUTIONS))('plays %s to 1.0 over MCP with strict arguments, each valid against the strict schema', async (taskId) => {
    const episode = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: taskId }).expect(200)).body.episode_id;
    const client = await sdkClient('?tool_schema=strict', { 'x-episode-id': episode });
    const tools = (await client.listTools()).tools;
    const ajv = new Ajv2020({ strict: false });
    const calls = [{ type: 'view_inbox' }, { type: 'view_ticket' }, ...SOLUTIONS[taskId].actions] as ({ type: string } & Record<string, unknown>)[];
    let last: any;
    for (const { type, ...given } of calls) {
      const tool = tools.find((t) => t.name === type)!;
      const args = strictArguments(tool, given);
      expect(Object.values(args)).toContain(null); // at least episode_id: the model leaves it to the session
      expect([type, ajv.validate(tool.inputSchema, args), ajv.errors]).toEqual([type, true, null]);
      last = await client.callTool({ name: type, arguments: args });
      expect([type, last.isError]).toEqual([type, false]);
    }
    expect(last.structuredContent).toMatchObject({ done: true, info: { status: 'resolved', score: 1 } });
    await client.close();
  });

  it('the same through an OpenEnv session and a /ws tool call', async () => {
    const created = (await rpc('openenv/session/create', { variant: 'canonical', tool_schema: 'strict' })).result;
    const view = await rpc('tools/call', { session_id: created.session_id, name: 'view_ticket', arguments: { episode_id: null } });
    expect(view.result.data).toEqual({ episode_id: created.episode_id, active_ticket: null, last_action_error: null });
    await rpc('openenv/session/close', { session_id: created.session_id });
    const ws = await openWsClient(`${base.replace('http', 'ws')}/ws`);
    await ws.ask({ type: 'reset', data: { variant: 'canonical', task_id: 'security_compromised_account' } });
    const ticket = SOLUTIONS.security_compromised_account.targetTicketId;
    await ws.ask({ type: 'step', data: { type: 'call_tool', tool_name: 'open_ticket', arguments: { ticket_id: ticket, episode_id: null } } });
    const resolved = await ws.ask({
      type: 'step',
      data: { type: 'call_tool', tool_name: 'resolve_ticket', arguments: { resolution: 'security_escalation', amount: null, episode_id: null } },
    });
    expect(resolved.data.observation.error).toBeNull();
    expect(resolved.data.done).toBe(true);
    ws.close();
  });
});
