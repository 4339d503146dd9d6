import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { GroupCommit } from './group-commit';

/** A group commit on a fresh WAL database file, counting its flushes and rollbacks. */
function setup() {
  const file = join(mkdtempSync(join(tmpdir(), 'group-commit-')), 'db.sqlite');
  const db = new Database(file, { timeout: 0 });
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
  const counts = { flushes: 0, rollbacks: 0 };
  const commits = new GroupCommit(
    db,
    async (flush) => {
      counts.flushes++;
      await flush();
    },
    () => counts.rollbacks++,
  );
  const insert = (id: number, label = `row ${id}`) => commits.write(async (sql) => (await sql.run('INSERT INTO rows (id, label) VALUES (?, ?)', [id, label])).changes);
  const reader = () => new Database(file, { readonly: true });
  return { db, file, commits, counts, insert, reader };
}

const ids = (db: Database.Database) => (db.prepare('SELECT id FROM rows ORDER BY id').all() as Array<{ id: number }>).map((r) => r.id);

describe('GroupCommit', () => {
  it('commits the writes submitted together in one transaction, in submission order, and answers each after the commit', async () => {
    const { commits, counts, insert, reader } = setup();
    const order: number[] = [];
    const writes = [1, 2, 3, 4, 5].map((id) => insert(id).then(() => order.push(id)));
    // A later write in the batch sees what the earlier ones wrote (same transaction).
    const seen = commits.write(async (sql) => (await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM rows'))!.n);
    await Promise.all(writes);
    expect(await seen).toBe(5);
    expect(counts.flushes).toBe(1);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    // Answered means committed: another connection sees every row.
    const other = reader();
    expect(ids(other)).toEqual([1, 2, 3, 4, 5]);
    other.close();
  });

  it('rolls back a write that throws on its own; the others in its batch are kept', async () => {
    const { db, commits, insert } = setup();
    const results = await Promise.allSettled([
      insert(1),
      commits.write(async (sql) => {
        await sql.run('INSERT INTO rows (id, label) VALUES (?, ?)', [2, 'half done']);
        throw new Error('refused after a statement');
      }),
      insert(1), // primary key taken by the first write: a constraint error, for this write only
      insert(3),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('refused after a statement');
    expect((results[2] as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect(ids(db)).toEqual([1, 3]);
  });

  it('when the batch cannot commit, every write in it is refused, nothing is kept, and the rollback is reported', async () => {
    const { db, file, counts, insert } = setup();
    const locker = new Database(file);
    locker.prepare('BEGIN IMMEDIATE').run(); // another connection holds the write lock past the (zero) busy timeout
    const results = await Promise.allSettled([insert(1), insert(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.code).toBe('SQLITE_BUSY');
    expect(counts.rollbacks).toBe(1);
    locker.prepare('ROLLBACK').run();
    locker.close();
    expect(db.inTransaction).toBe(false);
    // The next batch goes through normally.
    await insert(3);
    expect(ids(db)).toEqual([3]);
  });

  it('batches writes that arrive while a flush is waiting for the lock; close waits for all of them, then refuses new ones', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'group-commit-')), 'db.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let flushes = 0;
    const commits = new GroupCommit(
      db,
      async (flush) => {
        flushes++;
        await held; // another unit of work holds the database
        await flush();
      },
      () => undefined,
    );
    const first = commits.write((sql) => sql.run('INSERT INTO rows (id, label) VALUES (1, ?)', ['a']));
    await new Promise((resolve) => setImmediate(resolve)); // the flush is now waiting
    const later = [2, 3, 4].map((id) => commits.write((sql) => sql.run('INSERT INTO rows (id, label) VALUES (?, ?)', [id, 'b'])));
    const closed = commits.close();
    release();
    await closed;
    await Promise.all([first, ...later]);
    expect(ids(db)).toEqual([1, 2, 3, 4]);
    // The waiting flush took everything queued by the time it got the lock: one flush, one transaction.
    expect(flushes).toBe(1);
    await expect(commits.write(async () => 1)).rejects.toThrow(/shutting down/);
  });

  describe('with a sync off the event loop', () => {
    /** A group commit whose syncs are held until the test releases them, one by one. */
    function withHeldSyncs() {
      const file = join(mkdtempSync(join(tmpdir(), 'group-commit-')), 'db.sqlite');
      const db = new Database(file);
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
      const syncs: Array<(error: Error | null) => void> = [];
      let rollbacks = 0;
      const observed: Array<{ writes: number; seconds: number }> = [];
      const commits = new GroupCommit(db, async (flush) => flush(), () => rollbacks++, (done) => syncs.push(done), (writes, seconds) => observed.push({ writes, seconds }));
      const insert = (id: number) => commits.write(async (sql) => (await sql.run('INSERT INTO rows (id, label) VALUES (?, ?)', [id, 'x'])).changes);
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      return { db, commits, syncs, insert, turn, observed, rollbacks: () => rollbacks };
    }

    it('tells its observer of each batch once it is durable (its writes, and the time from BEGIN through the sync), never of a failed one', async () => {
      const { syncs, insert, turn, observed } = withHeldSyncs();
      const batch = Promise.all([insert(1), insert(2), insert(3)]);
      await turn();
      expect(observed).toEqual([]); // committed, not yet durable
      await new Promise((resolve) => setTimeout(resolve, 20));
      syncs[0](null);
      await batch;
      expect(observed).toHaveLength(1);
      expect(observed[0].writes).toBe(3);
      expect(observed[0].seconds).toBeGreaterThanOrEqual(0.015); // the sync's wait is in it
      const failed = insert(4);
      await turn();
      syncs[1](new Error('EIO'));
      await expect(failed).rejects.toThrow(/could not be made durable/);
      expect(observed).toHaveLength(1);
    });

    it('answers a batch only once a sync that started after its commit has returned; one sync covers every batch committed while another ran', async () => {
      const { db, commits, syncs, insert, turn } = withHeldSyncs();
      const answered: number[] = [];
      const first = insert(1).then(() => answered.push(1));
      await turn();
      expect(ids(db)).toEqual([1]); // committed (visible to this connection)...
      expect(syncs).toHaveLength(1);
      expect(answered).toEqual([]); // ...but not answered before it is durable
      const second = insert(2).then(() => answered.push(2));
      await turn();
      const third = insert(3).then(() => answered.push(3));
      await turn();
      expect(syncs).toHaveLength(1); // two more batches committed while the first sync runs: no second sync yet
      let durable = false;
      void commits.durable().then(() => (durable = true));
      syncs[0](null);
      await first;
      expect(answered).toEqual([1]);
      expect(syncs).toHaveLength(2); // one sync for both waiting batches
      expect(durable).toBe(false);
      syncs[1](null);
      await Promise.all([second, third]);
      expect(answered).toEqual([1, 2, 3]);
      await turn();
      expect(durable).toBe(true);
    });

    it('a failed sync refuses its batches (503) and drops what was cached from them', async () => {
      const { syncs, insert, turn, rollbacks } = withHeldSyncs();
      const write = insert(1);
      await turn();
      syncs[0](new Error('EIO'));
      await expect(write).rejects.toThrow(/could not be made durable/);
      expect(rollbacks()).toBe(1);
    });

    it('close waits for the syncs in flight', async () => {
      const { commits, syncs, insert, turn } = withHeldSyncs();
      const write = insert(1);
      await turn();
      let closed = false;
      const closing = commits.close().then(() => (closed = true));
      await turn();
      expect(closed).toBe(false);
      syncs[0](null);
      await Promise.all([write, closing]);
      expect(closed).toBe(true);
    });
  });
});
