import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp } from './support/test-app';

/*
 * The console's pages (src/http/console-pages.ts): its page at /console and every path under it, with its content
 * security policy; its hashed assets cached for good; the service's error body for what is missing, and for a
 * server whose console is not built.
 */

const PAGE = '<!doctype html><title>SupportDesk console</title><script type="module" src="/console/assets/app-abc.js"></script>';
const SCRIPT = 'console.log("console");';

let built: Awaited<ReturnType<typeof startTestApp>>;
let unbuilt: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), PAGE);
  writeFileSync(join(dir, 'assets', 'app-abc.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', '.env'), 'SECRET=1');
  built = await startTestApp(undefined, {}, { consoleDir: dir });
  unbuilt = await startTestApp(undefined, {}, { consoleDir: mkdtempSync(join(tmpdir(), 'console-none-')) });
});
afterAll(async () => {
  await built.app.close();
  await unbuilt.app.close();
});

function expectErrorBody(res: request.Response, message: RegExp): void {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', code: 'NOT_FOUND', message: expect.stringMatching(message), request_id: res.headers['x-request-id'] });
}

it.each(['/console', '/console/', '/console/runs/x?y=1', '/console/episodes/0b9c/steps/3'])('%s is the page, with its security policy and never cached stale', async (path) => {
  const res = await request(built.http).get(path).expect(200);
  expect(res.text).toBe(PAGE);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-cache');
  expect(res.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self';/);
  expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
});

it('an asset is served with a year\'s immutable caching; a missing one is a 404 with the error body', async () => {
  const asset = await request(built.http).get('/console/assets/app-abc.js').expect(200);
  expect(asset.text).toBe(SCRIPT);
  expect(asset.headers['content-type']).toMatch(/javascript/);
  expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers['x-content-type-options']).toBe('nosniff');
  expectErrorBody(await request(built.http).get('/console/assets/missing.js').expect(404), /.+/);
  expectErrorBody(await request(built.http).get('/console/assets/..%2f..%2fpackage.json').expect(404), /.+/);
  expectErrorBody(await request(built.http).get('/console/assets/.env').expect(404), /.+/);
});

it('without a build, /console and its paths are a 404 saying how to build it', async () => {
  for (const path of ['/console', '/console/runs/x', '/console/assets/app-abc.js']) {
    expectErrorBody(await request(unbuilt.http).get(path).expect(404), /npm run build/);
  }
});

it('the console is not part of the API: no /console path in openapi.json', async () => {
  const document = (await request(built.http).get('/openapi.json').expect(200)).body;
  expect(Object.keys(document.paths).filter((path) => path.startsWith('/console'))).toEqual([]);
});
