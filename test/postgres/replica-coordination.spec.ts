import { migratePostgres } from '../../src/database/postgres-migrate';
import { PostgresCoordination } from '../../src/replicas/postgres-coordination';
import type { ReplicaMessage } from '../../src/replicas';
import { scratchDatabase, withClient, type ScratchDatabase } from '../support/postgres';

/*
 * What replicas of one PostgreSQL deployment coordinate through it (src/replicas/): one leader at a time and a
 * successor once it goes, messages to the others, named work one process at a time, and rate limits spent from
 * one bucket whoever spends. Each "replica" here is a PostgresCoordination of its own, with its own connections.
 */

const RETRY_MS = 200;
let db: ScratchDatabase;
const started: PostgresCoordination[] = [];

beforeAll(async () => {
  db = await scratchDatabase('replicas');
  await migratePostgres({ connectionString: db.url });
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((replica) => replica.onApplicationShutdown()));
});
afterAll(() => db?.drop());

async function replica(): Promise<PostgresCoordination> {
  const coordination = new PostgresCoordination({ databaseUrl: db.url, databaseStatementTimeoutMs: 0 }, RETRY_MS);
  await coordination.onModuleInit();
  started.push(coordination);
  return coordination;
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('one replica leads; when it stops, another takes over within the retry interval', async () => {
  const replicas = [await replica(), await replica(), await replica()];
  expect(replicas.map((r) => r.isLeader())).toEqual([true, false, false]);
  await replicas[0].onApplicationShutdown();
  await until(() => replicas[1].isLeader() || replicas[2].isLeader(), RETRY_MS * 5);
  expect(replicas[1].isLeader() !== replicas[2].isLeader()).toBe(true);
});

it('a leader whose connection the database ends stops leading at once, and a replica leads again', async () => {
  const [first, second] = [await replica(), await replica()];
  expect(first.isLeader()).toBe(true);
  await withClient(db.url, (client) =>
    client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'supportdesk-replica' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`),
  );
  await until(() => !first.isLeader(), 2_000);
  await until(() => first.isLeader() || second.isLeader(), RETRY_MS * 10);
  expect(first.isLeader() && second.isLeader()).toBe(false);
});

it('a message reaches every other replica, and not the one that sent it', async () => {
  const replicas = [await replica(), await replica(), await replica()];
  const heard = replicas.map(() => [] as ReplicaMessage[]);
  replicas.forEach((r, i) => r.onMessage((message) => heard[i].push(message)));
  await replicas[1].tell({ kind: 'key_revoked', keyId: 'key-1' });
  await until(() => heard[0].length === 1 && heard[2].length === 1, 2_000);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(heard.map((messages) => messages.map((m) => m.kind === 'key_revoked' && m.keyId))).toEqual([['key-1'], [], ['key-1']]);
});

it('named work runs in one replica at a time; the name is free again once it has finished', async () => {
  const [a, b] = [await replica(), await replica()];
  let release!: () => void;
  const running = a.exclusively('tenant-deletion:t1', () => new Promise<string>((resolve) => (release = () => resolve('a finished'))));
  await until(() => release !== undefined, 2_000);
  expect(await b.exclusively('tenant-deletion:t1', async () => 'b ran')).toEqual({ ran: false });
  expect(await b.exclusively('tenant-deletion:t2', async () => 'b ran')).toEqual({ ran: true, value: 'b ran' });
  release();
  expect(await running).toEqual({ ran: true, value: 'a finished' });
  expect(await b.exclusively('tenant-deletion:t1', async () => 'b ran')).toEqual({ ran: true, value: 'b ran' });
});

it('named work that throws lets go of its name', async () => {
  const [a, b] = [await replica(), await replica()];
  await expect(a.exclusively('job', async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
  expect(await b.exclusively('job', async () => 1)).toEqual({ ran: true, value: 1 });
});

it('a rate limit is one bucket for every replica: concurrent takes never spend more than it holds, and it refills with time', async () => {
  let now = 1_700_000_000_000;
  const clock = () => now;
  const [a, b] = [await replica(), await replica()];
  const limits = [a.rateLimits('requests', 30, clock), b.rateLimits('requests', 30, clock)];
  const waits = await Promise.all(Array.from({ length: 80 }, (_, i) => limits[i % 2].take('tenant:t1')));
  expect(waits.filter((wait) => wait === 0)).toHaveLength(30);
  // Refused: the seconds until a token is back (30 a minute: one every 2 s).
  expect(new Set(waits.filter((wait) => wait > 0))).toEqual(new Set([2]));
  expect(await limits[1].wait('tenant:t1')).toBe(2);
  // Another name is another bucket; the other limit is another bucket of the same name.
  expect(await limits[0].take('tenant:t2')).toBe(0);
  expect(await b.rateLimits('failures', 30, clock).take('tenant:t1')).toBe(0);
  // Ten seconds give five tokens back. Takes of 3, 2 and 1 at once, from both replicas: each all or none, and never
  // more than the bucket holds, so two of them fit and one waits (whichever order the database runs them in).
  now += 10_000;
  const counts = [3, 2, 1];
  const batchWaits = await Promise.all(counts.map((count, i) => limits[i % 2].take('tenant:t1', count)));
  const granted = counts.filter((_, i) => batchWaits[i] === 0);
  expect(granted).toHaveLength(2);
  expect(granted.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(5);
  expect(batchWaits.filter((wait) => wait > 0)).toEqual([2]);
  // More than a full bucket is never granted; a full one is spent whole, and then waits for what it asks.
  now += 60_000;
  expect(await limits[0].take('tenant:t3', 31)).toBe(Infinity);
  expect(await limits[0].take('tenant:t1', 30)).toBe(0);
  expect(await limits[1].take('tenant:t1', 2)).toBe(4);
  // A replica whose clock is behind refills nothing and does not move the bucket's time back.
  const behind = a.rateLimits('requests', 30, () => now - 60_000);
  expect(await behind.take('tenant:t1')).toBe(2);
  now += 60_000;
  expect(await limits[0].take('tenant:t1', 30)).toBe(0);
});

it('pruning forgets the buckets that are full again, of its own limit only', async () => {
  let now = 1_700_000_000_000;
  const a = await replica();
  const requests = a.rateLimits('requests', 30, () => now);
  const failures = a.rateLimits('failures', 30, () => now);
  await requests.take('address:1');
  await failures.take('1');
  now += 30_000;
  await requests.take('address:2');
  now += 31_000;
  await requests.prune();
  const names = await withClient(db.url, async (client) => (await client.query<{ name: string }>('SELECT name FROM rate_buckets ORDER BY name')).rows.map((r) => r.name));
  expect(names).toEqual(expect.arrayContaining(['failures:1', 'requests:address:2']));
  expect(names).not.toContain('requests:address:1');
});

it('named work holds connections of its own: however many run, the rate limits are still answered', async () => {
  const a = await replica();
  let release!: () => void;
  const holding = new Promise<void>((resolve) => (release = resolve));
  const running = Array.from({ length: 8 }, (_, i) => a.exclusively(`tenant-deletion:${i}`, () => holding));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const limits = a.rateLimits('requests', 30, () => 1_700_000_000_000);
  const started = Date.now();
  expect(await Promise.all([limits.take('busy'), limits.wait('busy'), a.tell({ kind: 'key_revoked', keyId: 'k' })])).toEqual([0, 0, undefined]);
  expect(Date.now() - started).toBeLessThan(2_000);
  release();
  expect((await Promise.all(running)).map((r) => r.ran)).toEqual(Array(8).fill(true));
});

