import request from 'supertest';
import { Database } from '../../src/database/database.service';
import { freshDatabaseUrl, startTestApp } from '../support/test-app';

/* The e2e suites listed in jest.postgres.config.js run on PostgreSQL because their apps do: this holds the harness to it. */
it("under npm run test:postgres a test app serves from a fresh PostgreSQL database, and says so on /health", async () => {
  const url = freshDatabaseUrl();
  expect(url).toMatch(/^postgresql:\/\//);
  const { app, http } = await startTestApp(url);
  try {
    expect(app.get(Database).kind).toBe('postgresql');
    const health = await request(http).get('/health').expect(200);
    expect(health.body).toMatchObject({ status: 'healthy', database: 'ok', database_kind: 'postgresql' });
  } finally {
    await app.close();
  }
});
