import 'reflect-metadata';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { readCommandLine } from '../cli/command-line';
import { STORAGE_COMMAND } from './bench.commands';
import { ROOT, spawnServer, stopServer, waitHealthy } from './server-process';

/*
 * `npm run bench:storage`: what a finished episode costs on disk. The built server on a fresh database plays the
 * standard mix through HTTP — every episode looks at another ticket, opens the one that needs action, searches four
 * times, sets priority and team, sends one reply of about 300 characters and resolves it: 10 steps, no request_id
 * — then the file is VACUUMed and its size divided by the finished episodes, with each table's and index's share
 * from SQLite's dbstat.
 */

const PORT = 7979;
const BASE = `http://127.0.0.1:${PORT}`;

/** About 300 characters, several graded claims: what a real reply to a billing case looks like. */
const REPLY =
  'Hi, thank you for reaching out. I have checked your account: the duplicate payment of $49.00 was refunded to your card ' +
  'today and settles within 5-7 business days. I also signed out other sessions; please reset your password. Reply here ' +
  'if anything still looks wrong. Regards, Support';

interface Inbox {
  ticket_id: string;
  status?: string;
}

/** Ten steps on the ticket that needs action (the open one), after a look at another: the episode ends with them. */
function actions(inbox: Inbox[]): object[] {
  const target = (inbox.find((t) => t.status === undefined || t.status === 'open') ?? inbox[0] ?? { ticket_id: 'T-0' }).ticket_id;
  const other = inbox.find((t) => t.ticket_id !== target)?.ticket_id ?? target;
  return [
    { type: 'open_ticket', ticket_id: other },
    { type: 'open_ticket', ticket_id: target },
    { type: 'search_policy', query: 'refund duplicate charge' },
    { type: 'search_policy', query: 'account security password reset' },
    { type: 'set_priority', priority: 'high' },
    { type: 'route_ticket', team: 'billing' },
    { type: 'search_policy', query: 'shipping replacement credit' },
    { type: 'send_reply', message: REPLY },
    { type: 'search_policy', query: 'escalation' },
    { type: 'resolve_ticket', resolution: 'information_provided' },
  ];
}

async function post(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function play(episodes: number, clients: number): Promise<void> {
  const tasks = ((await (await fetch(`${BASE}/tasks`)).json()) as { tasks: Array<{ id: string; family: unknown }> }).tasks.filter((t) => t.family).map((t) => t.id);
  let next = 0;
  const client = async () => {
    for (let i = next++; i < episodes; i = next++) {
      const started = await post('/reset', { task_id: tasks[i % tasks.length] });
      for (const action of actions(started.observation.inbox ?? [])) {
        if ((await post('/step', { episode_id: started.episode_id, action })).done) break;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
}

function measure(file: string, keep: string | undefined) {
  const db = new BetterSqlite3(file);
  try {
    // As the server left it (its WAL checkpointed when it stopped): what a live database takes before any VACUUM.
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytesBeforeVacuum = statSync(file).size;
    if (keep) copyFileSync(file, keep);
    db.exec('VACUUM');
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const finished = count(`SELECT COUNT(*) AS n FROM episodes WHERE status != 'active'`);
    const episodes = count('SELECT COUNT(*) AS n FROM episodes');
    const steps = count('SELECT COUNT(*) AS n FROM action_log');
    const bytes = statSync(file).size;
    const objects = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as Array<{ name: string; bytes: number }>;
    return { episodes, finished, steps, bytes, bytesBeforeVacuum, objects };
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const { values } = readCommandLine(STORAGE_COMMAND);
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-storage-'));
  const file = join(dir, 'storage.db');
  try {
    const server = spawnServer({ DATABASE_URL: `file:${file}`, PORT: String(PORT), RATE_LIMIT_PER_MINUTE: '0', MAX_ACTIVE_EPISODES_PER_TENANT: '0' });
    try {
      await waitHealthy(BASE, 30_000);
      const started = Date.now();
      await play(values.episodes as number, values.clients as number);
      console.log(`played ${values.episodes} episodes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await stopServer(server);
    }
    const m = measure(file, values.keep as string | undefined);
    const perEpisode = m.bytes / m.finished;
    const perMillionSteps = (m.bytes / m.steps) * 1e6;
    console.log(`${m.finished} finished of ${m.episodes} episodes, ${m.steps} steps; after VACUUM ${(m.bytes / 1e6).toFixed(1)} MB`);
    console.log(`per finished episode: ${(perEpisode / 1024).toFixed(2)} KB; per 1M steps: ${(perMillionSteps / 1e9).toFixed(2)} GB`);
    console.log(`before VACUUM, as the server left it: ${(m.bytesBeforeVacuum / m.finished / 1024).toFixed(2)} KB per finished episode`);
    console.log('\nshare per finished episode (bytes):');
    for (const o of m.objects.filter((o) => o.bytes / m.finished >= 10)) console.log(`  ${o.name.padEnd(60)} ${Math.round(o.bytes / m.finished)}`);
    mkdirSync(join(ROOT, 'data', 'bench'), { recursive: true });
    const out = join(ROOT, 'data', 'bench', 'storage.json');
    writeFileSync(out, `${JSON.stringify({ ...m, perEpisode, perMillionSteps, objects: m.objects.map((o) => ({ ...o, perEpisode: o.bytes / m.finished })) }, null, 2)}\n`);
    console.log(`\nwrote ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
