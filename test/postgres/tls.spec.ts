import { existsSync } from 'node:fs';
import request from 'supertest';
import { Database } from '../../src/database/database.service';
import { migratePostgres } from '../../src/database/postgres-migrate';
import { postgresAdminUrl, scratchDatabase, withClient, type ScratchDatabase } from '../support/postgres';
import { startTestApp } from '../support/test-app';

/*
 * TLS to the database, as the URL asks for it (docs/postgresql.md): the server's certificate checked against the CA
 * named by sslrootcert, and every connection of the app encrypted; a certificate the CA does not vouch for stops
 * the start. tools/ci/start-postgres.sh turns TLS on with a test CA and puts the CA's certificate where this suite
 * reads it (SUPPORTDESK_TEST_POSTGRES_CA).
 */

const CA = process.env.SUPPORTDESK_TEST_POSTGRES_CA ?? '/usr/local/share/supportdesk-test-postgres-ca.crt';
let db: ScratchDatabase;

beforeAll(async () => {
  const ssl = await withClient(postgresAdminUrl(), async (client) => (await client.query<{ ssl: string }>('SHOW ssl')).rows[0].ssl);
  if (ssl !== 'on' || !existsSync(CA)) {
    throw new Error(`the test server must have TLS on and its CA's certificate in ${CA}: run tools/ci/start-postgres.sh (or set SUPPORTDESK_TEST_POSTGRES_CA)`);
  }
  db = await scratchDatabase('tls');
  await migratePostgres({ connectionString: db.url });
});
afterAll(() => db?.drop());

const withTls = (url: string, params: Record<string, string>) => {
  const tls = new URL(url);
  for (const [name, value] of Object.entries(params)) tls.searchParams.set(name, value);
  return tls.toString();
};

it('with sslmode=verify-full and the CA in sslrootcert, every connection of the app is encrypted, and it serves', async () => {
  const { app, http } = await startTestApp(withTls(db.url, { sslmode: 'verify-full', sslrootcert: CA }));
  try {
    expect((await request(http).get('/health').expect(200)).body).toMatchObject({ database: 'ok', database_kind: 'postgresql' });
    const id = (await request(http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
    await request(http).post('/step').send({ episode_id: id, action: { type: 'search_policy', query: 'refund' } }).expect(200);
    const database = app.get(Database);
    // The direct face's pool and the Prisma face's, each asked on a connection of its own.
    const direct = await database.read((sql) => sql.get<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()'));
    const prisma = await database.serialized((client) => client.$queryRawUnsafe<{ ssl: boolean }[]>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()'));
    expect([direct?.ssl, prisma[0].ssl]).toEqual([true, true]);
    // And the server sees no unencrypted connection from this database's clients.
    const plain = await database.read((sql) =>
      sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) WHERE a.datname = current_database() AND NOT s.ssl'),
    );
    expect(plain?.n).toBe(0);
  } finally {
    await app.close();
  }
});

it('refuses to start against a server whose certificate the named CA does not vouch for, saying why', async () => {
  // Any other CA: the system's public ones never signed the test server's certificate.
  const started = startTestApp(withTls(db.url, { sslmode: 'verify-full', sslrootcert: '/etc/ssl/certs/ca-certificates.crt' }));
  await expect(started.then(() => 'started', (error: Error) => error.message)).resolves.toMatch(/certificate/);
});
