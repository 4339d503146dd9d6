import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import request from 'supertest';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { ACCESS_METADATA, ACCESS_ROUTE_CONFIG } from '../src/access/access.decorator';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';

interface Route {
  route: string;
  access: string | undefined;
}

/** Every route handler of every controller, with the access rule it declares (on the method or its class). */
function routesOf(modules: ModulesContainer): Route[] {
  const routes: Route[] = [];
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as new (...args: unknown[]) => unknown;
      if (!controller?.prototype) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, handler);
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const access = Reflect.getMetadata(ACCESS_METADATA, handler) ?? Reflect.getMetadata(ACCESS_METADATA, controller);
        // Authentication runs before the body is read, from the rule the platform keeps in the route's config.
        expect([name, Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler)?.[ACCESS_ROUTE_CONFIG]]).toEqual([name, access]);
        routes.push({ route: `${method} /${[base, String(path)].filter((p) => p && p !== '/').join('/')}`, access });
      }
    }
  }
  return routes.sort((x, y) => x.route.localeCompare(y.route));
}

let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.app.close());

it('every route declares an access rule', () => {
  const routes = routesOf(ctx.app.get(ModulesContainer));
  expect(routes.length).toBeGreaterThan(15);
  expect(routes.filter((r) => r.access === undefined).map((r) => r.route)).toEqual([]);
});

it('the access rules are the intended ones (a new route must be added here, and to the isolation matrix if it takes an episode)', () => {
  expect(Object.fromEntries(routesOf(ctx.app.get(ModulesContainer)).map((r) => [r.route, r.access]))).toEqual({
    'DELETE /admin/tenants/:slug': 'admin',
    'DELETE /admin/tenants/:slug/keys/:key_id': 'admin',
    'DELETE /admin/tenants/:slug/retention': 'admin',
    'DELETE /mcp': 'agent',
    'GET /': 'public',
    'GET /action_schema': 'public',
    'GET /admin/events': 'admin',
    'GET /admin/tenants': 'admin',
    'GET /admin/tenants/:slug/keys': 'admin',
    'GET /episodes': 'audit',
    'GET /episodes/:episode_id': 'audit',
    'GET /episodes/:episode_id/actions': 'audit',
    'GET /episodes/:episode_id/rescore': 'audit',
    'GET /episodes/:episode_id/steps/:step': 'audit',
    'GET /episodes/:episode_id/verify': 'audit',
    'GET /episodes/export': 'audit',
    'GET /health': 'public',
    'GET /leaderboard': 'audit',
    'GET /mcp': 'agent',
    'GET /ledger/verify': 'audit',
    'GET /metadata': 'public',
    'GET /metrics': 'metrics',
    'GET /runs': 'episode',
    'GET /runs/:run_a/compare/:run_b': 'audit',
    'GET /runs/:run_id': 'episode',
    'GET /runs/:run_id/cells': 'episode',
    'GET /runs/:run_id/export': 'audit',
    'GET /runs/:run_id/regrade/:regrade_id': 'audit',
    'GET /schema': 'public',
    'GET /state': 'episode',
    'GET /state/:episode_id': 'episode',
    'GET /stats': 'audit',
    'GET /tasks': 'public',
    'GET /tasks/:task_id/instances/:seed': 'catalogue',
    'GET /tools': 'public',
    'POST /admin/ledger/enroll': 'admin',
    'POST /admin/retention/sweep': 'admin',
    'POST /admin/tenants': 'admin',
    'POST /admin/tenants/:slug/keys': 'admin',
    'POST /baseline': 'agent',
    'POST /grader': 'episode',
    'POST /mcp': 'agent',
    'POST /reset': 'agent',
    'POST /runs': 'agent',
    'POST /runs/:run_id/episodes/:episode_id/report': 'agent',
    'POST /runs/:run_id/regrade': 'audit',
    'POST /step': 'agent',
    'POST /step/batch': 'agent',
    'PUT /admin/tenants/:slug/retention': 'admin',
  });
});

it('the OpenAPI document declares each route\'s access, and security from it: none on public routes, a key otherwise (or none, in open mode, except on /admin)', async () => {
  const routes = routesOf(ctx.app.get(ModulesContainer));
  const accessOf = new Map(routes.map((r) => [r.route.replace(/:(\w+)/g, '{$1}'), r.access]));
  const document = (await request(ctx.http).get('/openapi.json').expect(200)).body;
  const keys = [{ bearer: [] }, { api_key: [] }, { basic: [] }];
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const access = accessOf.get(`${method.toUpperCase()} ${path}`);
      // /metrics takes no key only from METRICS_ALLOW_FROM (unset here).
      const expected = access === 'public' ? [] : access === 'admin' || access === 'metrics' ? keys : [...keys, {}];
      expect([`${method} ${path}`, operation['x-access'], operation.security]).toEqual([`${method} ${path}`, access, expected]);
    }
  }
  expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['api_key', 'basic', 'bearer']);
  // Keys are opaque strings, not JWTs.
  expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  expect(document.components.securitySchemes.bearer.bearerFormat).toBeUndefined();
  expect(document.components.securitySchemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
});

it('with keys required, the document asks for a key on every route that is not public', async () => {
  const keyed = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: 'test-admin-key-0123456789abcdef', CHAIN_KEY: 'test-chain-key-0123456789abcdef0123456789' });
  try {
    const document = (await request(keyed.http).get('/openapi.json').expect(200)).body;
    for (const item of Object.values<any>(document.paths)) {
      for (const operation of Object.values<any>(item)) {
        expect(operation.security.some((alternative: object) => Object.keys(alternative).length === 0)).toBe(false);
      }
    }
  } finally {
    await keyed.app.close();
  }
});

it('the audit filters (repeated_test_play among them) keep their routes\' rule: an agent key gets 403, a reader key and the admin key 200, no key 401', async () => {
  const keyed = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
  try {
    const document = (await request(keyed.http).get('/openapi.json').expect(200)).body;
    const { key, readerKey } = await tenantWithKey(keyed.http, 'filters-lab');
    for (const path of ['/episodes', '/episodes/export', '/stats']) {
      const parameter = document.paths[path].get.parameters.find((p: { name: string }) => p.name === 'repeated_test_play');
      expect([path, parameter?.schema]).toEqual([path, { type: 'string', enum: ['true', 'false'] }]);
      for (const query of [{}, { repeated_test_play: 'true' }, { repeated_test_play: 'false' }]) {
        await request(keyed.http).get(path).query(query).set(bearer(key)).expect(403);
        await request(keyed.http).get(path).query(query).set(bearer(readerKey)).expect(200);
        await request(keyed.http).get(path).query(query).set(asAdmin).expect(200);
        await request(keyed.http).get(path).query(query).expect(401);
      }
    }
  } finally {
    await keyed.app.close();
  }
});
