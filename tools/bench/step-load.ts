import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { readCommandLine, refuseCommandLine } from '../cli/command-line';
import { STEP_LOAD_COMMAND, STEP_LOAD_MODES } from './bench.commands';

/*
 * Load generator for the step benchmark, run as a child process so it does not share the server's event loop:
 * `node build/tools/bench/step-load.js <baseUrl> <clients> <seconds> <step|constant|pipeline|ws>`. Each client steps its
 * own episode (a fresh one when its budget runs low) and waits for each answer before the next request; in `ws`
 * mode each client is one OpenEnv WebSocket session. `pipeline` posts the same step body for an episode that does
 * not exist: the server's whole request pipeline (logging, body checks, auth, validation, one lookup, the error
 * body) without the step's work; its expected answer is 404.
 * Prints one JSON line: requests, errors, requests per second, latency percentiles in ms. Arguments: bench.commands.ts.
 */
async function main(): Promise<void> {
  const [base, clientsArg, secondsArg, mode] = readCommandLine(STEP_LOAD_COMMAND).positionals;
  const clients = Number(clientsArg);
  const duration = Number(secondsArg);
  if (!Number.isInteger(clients) || clients < 1) refuseCommandLine(STEP_LOAD_COMMAND, `<clients> must be a whole number of at least 1, got '${clientsArg}'`);
  if (!(duration > 0)) refuseCommandLine(STEP_LOAD_COMMAND, `<seconds> must be a number above 0, got '${secondsArg}'`);
  if (!STEP_LOAD_MODES.some((known) => known === mode)) refuseCommandLine(STEP_LOAD_COMMAND, `<mode> must be step, constant, pipeline or ws, got '${mode}'`);
  const deadline = Date.now() + duration * 1000;
  const dispatcher = new Agent({ connections: clients, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  let errors = 0;

  const call = async (path: string, body: unknown) => {
    const started = process.hrtime.bigint();
    const res = await request(`${base}${path}`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.body.json()) as any;
    return { status: res.statusCode, json, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };

  const client = async (index: number) => {
    let episodeId = '';
    let remaining = 0;
    while (Date.now() < deadline) {
      if (mode === 'step' && remaining <= 1) {
        const reset = await call('/reset', { task_id: 'logistics_missing_order_vip', seed: index });
        episodeId = reset.json.episode_id;
        remaining = reset.json.observation.remaining_steps;
        continue;
      }
      const res = await call('/step', { episode_id: episodeId || 'bench', action: { type: 'search_policy', query: `courier delivery ${index}` } });
      if (res.status !== (mode === 'pipeline' ? 404 : 200)) errors++;
      else latencies.push(res.ms);
      // A refused step (the episode ended some other way) starts a new episode.
      remaining = mode !== 'step' ? 99 : res.status === 200 ? res.json.observation.remaining_steps : 0;
    }
  };
  /** One OpenEnv session over /ws: reset, then steps, each awaited. */
  const wsClient = async (index: number) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const ask = (message: unknown) =>
      new Promise<any>((resolve) => {
        socket.once('message', (data) => resolve(JSON.parse(data.toString())));
        socket.send(JSON.stringify(message));
      });
    let remaining = 0;
    while (Date.now() < deadline) {
      if (remaining <= 1) {
        const reset = await ask({ type: 'reset', data: { task_id: 'logistics_missing_order_vip', seed: index } });
        remaining = reset.data.observation.remaining_steps;
        continue;
      }
      const t = process.hrtime.bigint();
      const reply = await ask({ type: 'step', data: { type: 'search_policy', query: `courier delivery ${index}` } });
      if (reply.type !== 'observation') errors++;
      else {
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        remaining = reply.data.observation.remaining_steps;
      }
    }
    socket.close();
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: clients }, (_, i) => (mode === 'ws' ? wsClient(i) : client(i))));
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  console.log(JSON.stringify({ requests: latencies.length, errors, rps: latencies.length / seconds, p50: pct(0.5), p99: pct(0.99) }));
  await dispatcher.close();
}

void main();
