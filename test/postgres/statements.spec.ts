import { PostgresConnection } from '../../src/database/postgres-connection';
import { migratePostgres } from '../../src/database/postgres-migrate';
import { toPostgres } from '../../src/database/postgres-dialect';
import { STATEMENT_GROUPS } from '../support/raw-statements';
import { scratchDatabase, withClient, type ScratchDatabase } from '../support/postgres';

/*
 * Every statement the repositories run outside Prisma's model queries (the list the SQLite snapshots are made from),
 * translated as the PostgreSQL connection translates it and prepared on the migrated PostgreSQL schema: PREPARE
 * parses it and resolves every table, column, function and parameter type, without running it.
 */
let db: ScratchDatabase;
beforeAll(async () => {
  db = await scratchDatabase('statements');
  await migratePostgres({ connectionString: db.url });
});
afterAll(() => db?.drop());

const cases = STATEMENT_GROUPS.flatMap((group) => group.statements.map(([name, sql]) => [`${group.file}: ${name}`, sql] as const));

it.each(cases)('%s prepares on PostgreSQL', async (_name, sql) => {
  await withClient(db.url, async (client) => {
    await client.query(`PREPARE checked AS ${toPostgres(sql).text}`);
    await client.query('DEALLOCATE checked');
  });
});

it('reads rows in the shapes SQLite gives them: counts as numbers, times as Unix milliseconds', async () => {
  await withClient(db.url, async (client) => {
    const sql = new PostgresConnection(client);
    await sql.run(`INSERT INTO tenants (id, slug, name, created_at) VALUES (?, ?, ?, ?)`, ['t1', 'one', 'One', new Date(1_700_000_000_123)]);
    const row = await sql.get<{ n: number; at: number }>(`SELECT COUNT(*) AS n, MAX(created_at) AS at FROM tenants WHERE slug = @slug`, { slug: 'one' });
    expect(row).toEqual({ n: 1, at: 1_700_000_000_123 });
    expect(await sql.run(`UPDATE tenants SET name = ? WHERE id = ?`, ['Uno', 't1'])).toEqual({ changes: 1 });
  });
});
