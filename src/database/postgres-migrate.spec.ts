import { createServer, type Server } from 'node:net';
import { MigrationError } from './migration-error';
import { migratePostgresWhenReachable, pendingOf, serverOf, type MigrationFile } from './postgres-migrate';

/** A port nothing listens on: one a server just held and closed. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('start-up on PostgreSQL', () => {
  it('waits for a server that does not answer, says so once, then stops naming it, never its password', async () => {
    const port = await closedPort();
    const said: string[] = [];
    const attempt = migratePostgresWhenReachable(`postgresql://app:hunter2@127.0.0.1:${port}/supportdesk`, 1200, (message) => said.push(message));
    await expect(attempt).rejects.toThrow(MigrationError);
    await expect(attempt).rejects.toThrow(`PostgreSQL at 127.0.0.1:${port}/supportdesk did not accept connections within 1 s (ECONNREFUSED)`);
    expect(said).toEqual([`waiting for PostgreSQL at 127.0.0.1:${port}/supportdesk (ECONNREFUSED); giving up after 1 s (DATABASE_WAIT_MS)`]);
    expect(JSON.stringify(said)).not.toContain('hunter2');
  });

  it('names a server by host, port and database only', () => {
    expect(serverOf('postgresql://app:hunter2@db.internal/supportdesk?sslmode=require')).toBe('db.internal:5432/supportdesk');
  });
});

describe("a database's history against the committed files", () => {
  const file = (name: string, checksum = 'c'.repeat(64)): MigrationFile => ({ name, sql: '', checksum });
  const applied = (name: string, checksum = 'c'.repeat(64)) => ({ migration_name: name, checksum, finished_at: new Date(0), rolled_back_at: null });

  it('leaves out what is applied, and keeps the order of the files', () => {
    expect(pendingOf([file('1_a'), file('2_b'), file('3_c')], [applied('1_a')]).map((f) => f.name)).toEqual(['2_b', '3_c']);
  });

  it('takes a rolled-back record for not applied', () => {
    expect(pendingOf([file('1_a')], [{ ...applied('1_a'), finished_at: null, rolled_back_at: new Date(0) }]).map((f) => f.name)).toEqual(['1_a']);
  });
});
