import request from 'supertest';
import { startTestApp } from './support/test-app';
import { Database } from '../src/database/database.service';

// The module object itself (not an ES namespace, whose members cannot be replaced), which the server calls through.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs: typeof import('node:fs') = require('node:fs');

/*
 * With SQLITE_SYNCHRONOUS=FULL (the default) a step's batch commits without syncing and its WAL is synced off the
 * event loop before the step is answered: the answer must come after an fdatasync of the database's WAL file that
 * started after the step's COMMIT.
 */
it('a step is answered only after the WAL holding it has been synced to disk', async () => {
  const events: string[] = [];
  const original = fs.fdatasync;
  const spy = jest.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    events.push(`sync started: ${fs.fstatSync(fd).ino}`);
    original(fd, (error) => {
      events.push('sync returned');
      callback(error);
    });
  }) as typeof fs.fdatasync);
  const ctx = await startTestApp();
  try {
    const wal = fs.statSync(`${ctx.databaseUrl.slice('file:'.length)}-wal`).ino;
    // Start-up's own writes, synced before the events that count are recorded.
    await ctx.app.get(Database).durable();
    events.length = 0;
    const reset = await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200);
    events.push('reset answered');
    await request(ctx.http).post('/step').send({ episode_id: reset.body.episode_id, action: { type: 'search_policy', query: 'refund' } }).expect(200);
    events.push('step answered');
    expect(events).toEqual([`sync started: ${wal}`, 'sync returned', 'reset answered', `sync started: ${wal}`, 'sync returned', 'step answered']);
  } finally {
    await ctx.app.close();
    spy.mockRestore();
  }
});

it('with SQLITE_SYNCHRONOUS=NORMAL nothing is synced per step (the operator traded it for throughput)', async () => {
  const spy = jest.spyOn(fs, 'fdatasync');
  const ctx = await startTestApp(undefined, { SQLITE_SYNCHRONOUS: 'NORMAL' });
  try {
    const reset = await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200);
    await request(ctx.http).post('/step').send({ episode_id: reset.body.episode_id, action: { type: 'search_policy', query: 'refund' } }).expect(200);
    expect(spy).not.toHaveBeenCalled();
  } finally {
    await ctx.app.close();
    spy.mockRestore();
  }
});
