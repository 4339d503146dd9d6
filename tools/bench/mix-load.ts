import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { readCommandLine, refuseCommandLine } from '../cli/command-line';
import { MIX_LOAD_COMMAND, MIX_LOAD_PLANS, MIX_LOAD_TRANSPORTS, type MixLoadPlan, type MixLoadTransport } from './bench.commands';
import { actionsFor, taskIdsOf, type BenchAction, type ResetView } from './mix-plans';

/*
 * The side-by-side benchmark's load generator, a process of its own: `node build/tools/bench/mix-load.js <baseUrl>
 * <clients> <seconds> <plan> <transport> [key]`. Closed loop: each client (each environment of a batch) resets an
 * episode, steps it through its plan until the episode ends, and resets again; every answer is awaited before the
 * next request of that client. Plans (mix-plans.ts): `kit`, the shared kit's fixed mix; `mix`, what an agent really
 * sends on this server; `mix-anchor`, the same mix on the anchor's tasks. Transports: `http` (POST /reset, POST
 * /step), `ws` (one OpenEnv session per client), `mcp` (resets over HTTP, steps as MCP tools/call in one MCP session
 * per client), `batch` (each client holds BATCH_SIZE environments and steps them all with one POST /step/batch).
 * Prints one JSON line: steps and resets per second, step (or batch) and reset p50/p99 in ms, errors.
 */

const BATCH_SIZE = Number(process.env.BATCH_SIZE ?? 16);

interface Stats {
  steps: number;
  resets: number;
  errors: number;
  stepMs: number[];
  resetMs: number[];
}

async function main(): Promise<void> {
  const [base, clientsArg, secondsArg, planArg, transportArg, key] = readCommandLine(MIX_LOAD_COMMAND).positionals;
  const clients = Number(clientsArg);
  const seconds = Number(secondsArg);
  if (!Number.isInteger(clients) || clients < 1) refuseCommandLine(MIX_LOAD_COMMAND, `<clients> must be a whole number of at least 1, got '${clientsArg}'`);
  if (!(seconds > 0)) refuseCommandLine(MIX_LOAD_COMMAND, `<seconds> must be a number above 0, got '${secondsArg}'`);
  if (!MIX_LOAD_PLANS.some((p) => p === planArg)) refuseCommandLine(MIX_LOAD_COMMAND, `<plan> must be one of ${MIX_LOAD_PLANS.join(', ')}, got '${planArg}'`);
  if (!MIX_LOAD_TRANSPORTS.some((t) => t === transportArg)) refuseCommandLine(MIX_LOAD_COMMAND, `<transport> must be one of ${MIX_LOAD_TRANSPORTS.join(', ')}, got '${transportArg}'`);
  const plan = planArg as MixLoadPlan;
  const transport = transportArg as MixLoadTransport;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  const dispatcher = new Agent({ connections: clients * 2, pipelining: 1, keepAliveTimeout: 30_000 });
  const stats: Stats = { steps: 0, resets: 0, errors: 0, stepMs: [], resetMs: [] };
  const deadline = Date.now() + seconds * 1000;
  const taskIds = plan === 'mix' ? await taskIdsOf(base, headers) : null;

  const post = async (path: string, body: unknown, extra: Record<string, string> = {}) => {
    const started = process.hrtime.bigint();
    const res = await request(`${base}${path}`, { method: 'POST', dispatcher, headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, json: text ? (JSON.parse(text) as any) : undefined, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };

  /** One environment: its episode, its plan, and how far along it is. */
  class Environment {
    episodeId = '';
    actions: BenchAction[] = [];
    next = 0;
    constructor(private readonly index: number, private n = 0) {}

    resetBody(): Record<string, unknown> {
      return plan === 'mix' ? { task_id: taskIds![(this.index + this.n++) % taskIds!.length] } : { task_id: KIT_TASKS[(this.index + this.n++) % KIT_TASKS.length] };
    }

    started(view: ResetView): void {
      this.episodeId = view.episode_id;
      this.actions = actionsFor(plan, view);
      this.next = 0;
    }

    action(): BenchAction {
      // The kit's plan repeats until the episode ends; the mix ends it with its last action (or the step budget).
      return this.actions[this.next++ % this.actions.length];
    }

    async reset(): Promise<boolean> {
      const res = await post('/reset', this.resetBody());
      if (res.status !== 200) {
        stats.errors++;
        return false;
      }
      stats.resets++;
      stats.resetMs.push(res.ms);
      this.started(res.json);
      return true;
    }
  }

  const httpClient = async (index: number) => {
    const env = new Environment(index);
    while (Date.now() < deadline) {
      if (!(await env.reset())) continue;
      for (let done = false; !done && Date.now() < deadline; ) {
        const res = await post('/step', { episode_id: env.episodeId, action: env.action() });
        if (res.status !== 200) {
          stats.errors++;
          break;
        }
        stats.steps++;
        stats.stepMs.push(res.ms);
        done = res.json.done;
      }
    }
  };

  const batchClient = async (index: number) => {
    const envs = Array.from({ length: BATCH_SIZE }, (_, i) => new Environment(index * BATCH_SIZE + i));
    const live = new Set<Environment>();
    while (Date.now() < deadline) {
      // Environments whose episode ended are reset together, as a vectorised environment resets its done ones.
      const resets = envs.filter((env) => !live.has(env)).map(async (env) => (await env.reset()) && live.add(env));
      await Promise.all(resets);
      const stepping = envs.filter((env) => live.has(env));
      if (stepping.length === 0) continue;
      const res = await post('/step/batch', { items: stepping.map((env) => ({ episode_id: env.episodeId, action: env.action() })) });
      if (res.status !== 200) {
        stats.errors++;
        continue;
      }
      stats.stepMs.push(res.ms);
      (res.json.results as Array<{ status: number; result?: { done: boolean } }>).forEach((result, i) => {
        if (result.status === 200) stats.steps++;
        else stats.errors++;
        if (result.status !== 200 || result.result!.done) live.delete(stepping[i]);
      });
    }
  };

  const wsClient = async (index: number) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const ask = (message: unknown) =>
      new Promise<{ message: any; ms: number }>((resolve) => {
        const started = process.hrtime.bigint();
        socket.once('message', (data) => resolve({ message: JSON.parse(data.toString()), ms: Number(process.hrtime.bigint() - started) / 1e6 }));
        socket.send(JSON.stringify(message));
      });
    const env = new Environment(index);
    while (Date.now() < deadline) {
      const reset = await ask({ type: 'reset', data: env.resetBody() });
      if (reset.message.type !== 'observation') {
        stats.errors++;
        continue;
      }
      stats.resets++;
      stats.resetMs.push(reset.ms);
      env.started(reset.message.data);
      for (let done = false; !done && Date.now() < deadline; ) {
        const step = await ask({ type: 'step', data: env.action() });
        if (step.message.type !== 'observation') {
          stats.errors++;
          break;
        }
        stats.steps++;
        stats.stepMs.push(step.ms);
        done = step.message.data.done;
      }
    }
    socket.close();
  };

  const mcpClient = async (index: number) => {
    const accept = { accept: 'application/json, text/event-stream' };
    const init = await post('/mcp', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }, accept);
    const session = { ...accept, 'mcp-session-id': String(init.headers['mcp-session-id']) };
    await post('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const env = new Environment(index);
    let id = 1;
    while (Date.now() < deadline) {
      if (!(await env.reset())) continue;
      for (let done = false; !done && Date.now() < deadline; ) {
        const { type, ...args } = env.action();
        const res = await post('/mcp', { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: type, arguments: { ...args, episode_id: env.episodeId } } }, session);
        const result = res.json?.result;
        if (res.status !== 200 || !result || result.isError) {
          stats.errors++;
          break;
        }
        stats.steps++;
        stats.stepMs.push(res.ms);
        done = result.structuredContent.done;
      }
    }
  };

  const client = { http: httpClient, batch: batchClient, ws: wsClient, mcp: mcpClient }[transport];
  const started = Date.now();
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  const elapsed = (Date.now() - started) / 1000;
  await dispatcher.close();
  console.log(
    JSON.stringify({
      plan,
      transport,
      clients,
      seconds: Number(elapsed.toFixed(1)),
      steps_per_s: Math.round(stats.steps / elapsed),
      resets_per_s: Math.round(stats.resets / elapsed),
      step_p50_ms: percentile(stats.stepMs, 0.5),
      step_p99_ms: percentile(stats.stepMs, 0.99),
      reset_p50_ms: percentile(stats.resetMs, 0.5),
      reset_p99_ms: percentile(stats.resetMs, 0.99),
      errors: stats.errors,
    }),
  );
}

/** The shared kit's three tasks, which both servers know. */
const KIT_TASKS = ['billing_duplicate_charge', 'security_compromised_account', 'logistics_missing_order_vip'];

function percentile(latencies: number[], p: number): number {
  if (latencies.length === 0) return NaN;
  const sorted = [...latencies].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2));
}

void main();
