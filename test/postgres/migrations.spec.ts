import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Client } from 'pg';
import { MigrationError } from '../../src/database/migration-error';
import { migratePostgres, migrationFiles, type MigrationFile } from '../../src/database/postgres-migrate';
import { APPEND_ONLY_TRIGGERS } from '../support/append-only-triggers';
import { scratchDatabase, withClient, type ScratchDatabase } from '../support/postgres';

const ROOT = join(__dirname, '..', '..');

/** Columns, constraints and indexes of the public schema, in a stable order: what two databases must agree on. */
async function schemaOf(client: Client): Promise<Record<string, string[]>> {
  const columns = await client.query(
    `SELECT table_name || '.' || column_name || ' ' || data_type || coalesce('(' || datetime_precision || ')', '') ||
            ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
  );
  const constraints = await client.query(
    `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS line
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_prisma_migrations'`,
  );
  const indexes = await client.query(`SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`);
  const lines = (result: { rows: Array<{ line: string }> }) => result.rows.map((row) => row.line).sort();
  return { columns: lines(columns), constraints: lines(constraints), indexes: lines(indexes) };
}

async function triggersOf(client: Client): Promise<string[]> {
  const result = await client.query<{ tgname: string }>(`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname`);
  return result.rows.map((row) => row.tgname);
}

let migrated: ScratchDatabase;
beforeAll(async () => {
  migrated = await scratchDatabase('migrations');
  await migratePostgres({ connectionString: migrated.url });
});
afterAll(() => migrated?.drop());

it('the committed migrations produce exactly the schema in prisma/postgresql/schema.prisma, with the append-only triggers', async () => {
  const fromSchema = execFileSync(
    join(ROOT, 'node_modules', '.bin', 'prisma'),
    ['migrate', 'diff', '--from-empty', '--to-schema-datamodel', 'prisma/postgresql/schema.prisma', '--script'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const expected = await scratchDatabase('expected');
  try {
    await withClient(expected.url, (client) => client.query(fromSchema));
    const [got, want] = await Promise.all([withClient(migrated.url, schemaOf), withClient(expected.url, schemaOf)]);
    expect(got.columns.length).toBeGreaterThan(100);
    expect(got).toEqual(want);
    // The triggers are written by hand (Prisma has no notation for them): the same names SQLite's migrations give.
    expect(await withClient(migrated.url, triggersOf)).toEqual([...APPEND_ONLY_TRIGGERS].sort());
  } finally {
    await expected.drop();
  }
});

it("records each migration as Prisma does, with Prisma's checksum (the SHA-256 of the file)", async () => {
  const rows = await withClient(migrated.url, (client) =>
    client.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    ),
  );
  const files = migrationFiles();
  expect(rows.rows.map((row) => [row.migration_name, row.checksum])).toEqual(files.map((file) => [file.name, file.checksum]));
  expect(rows.rows.every((row) => row.finished_at instanceof Date && row.applied_steps_count === 1)).toBe(true);
});

it('a second run applies nothing', async () => {
  expect(await migratePostgres({ connectionString: migrated.url })).toEqual([]);
});

describe('the append-only rules', () => {
  const seedRows = async (client: Client) => {
    await client.query(`INSERT INTO tenants (id, slug, name) VALUES ('t1', 'one', 'One')`);
    await client.query(`INSERT INTO task_versions (task_id, version, content_json) VALUES ('task', 'v1', '{}')`);
    const episode = await client.query<{ serial: number }>(
      `INSERT INTO episodes (id, tenant_id, task_id, task_version, seed, status, step_count, score_milli, version, state_json, updated_at, ledger_seq)
       VALUES ('e1', 't1', 'task', 'v1', 1, 'active', 0, 0, 0, '{}', now(), 1) RETURNING serial`,
    );
    await client.query(
      `INSERT INTO action_log (episode_serial, tenant_serial, step_index, action_json, reward_milli, score_after_milli, outcome, created_at, hash)
       VALUES ($1, 1, 1, '{}', 0, 0, 'ok', 0, '\\x00')`,
      [episode.rows[0].serial],
    );
    await client.query(`INSERT INTO ledger_entries (tenant_id, seq, kind, episode_id, step_index, body, key_id, mac, created_at) VALUES ('t1', 2, 'k', 'e1', 0, '{}', 'key', 'mac', now())`);
    await client.query(`INSERT INTO ledger_gaps (tenant_id, first_seq, last_seq, last_mac, purge_seq) VALUES ('t1', 3, 4, 'mac', 5)`);
  };
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await scratchDatabase('append_only');
    await migratePostgres({ connectionString: db.url });
    await withClient(db.url, seedRows);
  });
  afterAll(() => db?.drop());

  it.each([
    ['action_log', 'UPDATE action_log SET outcome = $$x$$', 'action_log is append-only: rows cannot be updated'],
    ['action_log', 'DELETE FROM action_log', 'action_log is append-only: rows cannot be deleted'],
    ['ledger_entries', 'UPDATE ledger_entries SET body = $${}$$', 'ledger_entries is append-only: rows cannot be updated'],
    ['ledger_entries', 'DELETE FROM ledger_entries', 'ledger_entries is append-only: rows cannot be deleted'],
    ['ledger_gaps', 'UPDATE ledger_gaps SET last_mac = $$x$$', 'ledger_gaps is append-only: rows cannot be updated'],
    ['ledger_gaps', 'DELETE FROM ledger_gaps', 'ledger_gaps is append-only: rows cannot be deleted'],
    ['episodes', 'UPDATE episodes SET ledger_seq = 9', "an episode's ledger entry is append-only: it cannot be updated"],
  ])('%s: %s is refused', async (table, statement, message) => {
    await withClient(db.url, async (client) => {
      await expect(client.query(statement)).rejects.toThrow(message);
      const count = await client.query(`SELECT count(*)::int AS n FROM ${table}`);
      expect(count.rows[0].n).toBe(1);
    });
  });

  it('the rest of an episode row still changes, and a purge deletes while it holds purge_guard, in its own transaction only', async () => {
    await withClient(db.url, async (client) => {
      await client.query(`UPDATE episodes SET step_count = 1, version = 1`);
      await client.query('BEGIN');
      await client.query(`INSERT INTO purge_guard (id, reason) VALUES (1, 'purge')`);
      await withClient(db.url, (other) => expect(other.query('DELETE FROM ledger_gaps')).rejects.toThrow('append-only'));
      await client.query('DELETE FROM action_log');
      await client.query('DELETE FROM ledger_entries');
      await client.query('DELETE FROM purge_guard');
      await client.query('COMMIT');
      const left = await client.query(`SELECT (SELECT count(*) FROM action_log)::int AS log, (SELECT count(*) FROM ledger_entries)::int AS ledger`);
      expect(left.rows[0]).toEqual({ log: 0, ledger: 0 });
      await expect(client.query('DELETE FROM ledger_gaps')).rejects.toThrow('append-only');
    });
  });
});

describe('the runner', () => {
  const files = migrationFiles();
  let db: ScratchDatabase;
  beforeEach(async () => {
    db = await scratchDatabase('runner');
  });
  afterEach(() => db?.drop());
  const appliedNames = () =>
    withClient(db.url, (client) => client.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" ORDER BY 1')).then((r) =>
      r.rows.map((row) => row.migration_name),
    );

  it('two servers starting at once: one applies the history, the other waits for it and applies nothing', async () => {
    const both = await Promise.all([migratePostgres({ connectionString: db.url }), migratePostgres({ connectionString: db.url })]);
    expect(both.map((applied) => applied.length).sort()).toEqual([0, files.length]);
    expect(await appliedNames()).toEqual(files.map((file) => file.name));
  });

  it('refuses a history whose applied file was changed, and applies nothing after it', async () => {
    await migratePostgres({ connectionString: db.url });
    const changed: MigrationFile[] = files.map((file, i) => (i === 0 ? { ...file, checksum: '0'.repeat(64) } : file));
    const later: MigrationFile = { name: '29991231000000_later', sql: 'CREATE TABLE later (id int)', checksum: 'a'.repeat(64) };
    await expect(migratePostgres({ connectionString: db.url }, [...changed, later])).rejects.toThrow(
      new MigrationError(`migration ${files[0].name} was changed after it was applied to this database; restore the committed file (a change needs a new migration)`),
    );
    expect(await appliedNames()).toEqual(files.map((file) => file.name));
  });

  it('refuses a database a newer release migrated', async () => {
    await migratePostgres({ connectionString: db.url });
    await expect(migratePostgres({ connectionString: db.url }, files.slice(0, -1))).rejects.toThrow(/which this release does not have: it was migrated by a newer release/);
  });

  it('a migration that fails leaves nothing of itself behind and is not recorded; the ones before it stay', async () => {
    const broken: MigrationFile = { name: '29991231000000_broken', sql: 'CREATE TABLE half_done (id int);\nSELECT no_such_function();', checksum: 'b'.repeat(64) };
    await expect(migratePostgres({ connectionString: db.url }, [...files, broken])).rejects.toThrow(/migration 29991231000000_broken failed and was rolled back: .*no_such_function/);
    expect(await appliedNames()).toEqual(files.map((file) => file.name));
    const table = await withClient(db.url, (client) => client.query(`SELECT to_regclass('half_done') AS t`));
    expect(table.rows[0].t).toBeNull();
  });
});
