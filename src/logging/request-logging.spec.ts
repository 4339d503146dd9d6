import { Writable } from 'node:stream';
import express from 'express';
import { pinoHttp, type Options } from 'pino-http';
import request from 'supertest';
import { loadConfig } from '../config/app-config';
import { requestLoggingParams } from './request-logging';

/** An express app logging through our pino-http options into memory. */
function appWithLog() {
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunk.toString().trim().split('\n').forEach((line: string) => lines.push(JSON.parse(line)));
      done();
    },
  });
  const options = requestLoggingParams(loadConfig({ LOG_LEVEL: 'log' })).pinoHttp as Options;
  const app = express();
  app.use(pinoHttp(options, sink));
  app.post('/step/:id', (req, res) => {
    (req as any).principal = { kind: 'tenant', tenantId: 'tenant-42', keyId: 'k1' };
    res.status(200).json({ ok: true });
  });
  return { app, lines };
}

it('logs one line per request with request id, tenant, route, status and latency, and no credentials', async () => {
  const { app, lines } = appWithLog();
  const secret = 'sdk_SECRETSECRETSECRET';
  const res = await request(app)
    .post('/step/abc')
    .set('Authorization', `Bearer ${secret}`)
    .set('X-API-Key', secret)
    .set('x-request-id', 'run-7.step-3')
    .expect(200);
  expect(res.headers['x-request-id']).toBe('run-7.step-3');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({
    req: { id: 'run-7.step-3', method: 'POST', url: '/step/abc' },
    res: { status: 200 },
    tenant: 'tenant-42',
    route: '/step/:id',
    responseTime: expect.any(Number),
  });
  expect(JSON.stringify(lines)).not.toContain('SECRET');
});

it('replaces a request id that does not look like one, and echoes the new one', async () => {
  const { app, lines } = appWithLog();
  const res = await request(app).post('/step/abc').set('x-request-id', 'bad id; with "junk" '.repeat(20)).expect(200);
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(lines[0].req.id).toBe(res.headers['x-request-id']);
});
