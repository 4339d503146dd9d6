import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startTestApp } from './support/test-app';

let app: NestFastifyApplication;
let schema: any;
let validate: ReturnType<Ajv2020['compile']>;

beforeAll(async () => {
  let http;
  ({ app, http } = await startTestApp());
  schema = (await request(http).get('/action_schema').expect(200)).body;
  // strict mode: any keyword that is not JSON Schema (an OpenAPI leftover) fails the compile.
  const ajv = new Ajv2020({ strict: true, discriminator: true, allErrors: true });
  validate = ajv.compile(schema);
});
afterAll(() => app.close());

it('is a 2020-12 JSON Schema: oneOf the six actions with a discriminator on type', () => {
  expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  expect(schema.discriminator).toEqual({ propertyName: 'type' });
  const tags = schema.oneOf.map((branch: any) => schema.$defs[branch.$ref.replace('#/$defs/', '')].properties.type.enum);
  expect(tags).toEqual([
    ['open_ticket'],
    ['search_policy'],
    ['set_priority'],
    ['route_ticket'],
    ['send_reply'],
    ['resolve_ticket'],
  ]);
});

it.each([
  { type: 'open_ticket', ticket_id: 'T-1041' },
  { type: 'search_policy', query: 'duplicate charge' },
  { type: 'set_priority', priority: 'urgent' },
  { type: 'route_ticket', team: 'vip_concierge' },
  { type: 'send_reply', message: 'Your refund of $348.00 is on its way.' },
  { type: 'resolve_ticket', resolution: 'refund_issued', amount: 348 },
  { type: 'resolve_ticket', resolution: 'security_escalation' },
  { type: 'resolve_ticket', resolution: 'security_escalation', amount: null },
  { type: 'resolve_ticket', resolution: 'replacement_dispatched' },
  { type: 'resolve_ticket', resolution: 'replacement_dispatched', amount: 0.57 },
  { type: 'resolve_ticket', resolution: 'credit_issued', amount: 19.99 },
])('accepts %j', (action) => {
  expect(validate(action)).toBe(true);
});

it.each([
  ['an unknown type', { type: 'fly_to_moon' }],
  ['no type', { ticket_id: 'T-1041' }],
  ['a missing field', { type: 'open_ticket' }],
  ['an extra field', { type: 'open_ticket', ticket_id: 'T-1041', extra: 1 }],
  ['a wrong field type', { type: 'open_ticket', ticket_id: 42 }],
  ['a priority outside the enum', { type: 'set_priority', priority: 'critical' }],
  ['a team outside the enum', { type: 'route_ticket', team: 'finance' }],
  ['a reply over 2000 characters', { type: 'send_reply', message: 'x'.repeat(2001) }],
  ['an empty query', { type: 'search_policy', query: '' }],
  ['a negative amount', { type: 'resolve_ticket', resolution: 'refund_issued', amount: -1 }],
  ['a refund without an amount', { type: 'resolve_ticket', resolution: 'refund_issued' }],
  ['a credit with a null amount', { type: 'resolve_ticket', resolution: 'credit_issued', amount: null }],
  ['an amount where none is taken', { type: 'resolve_ticket', resolution: 'security_escalation', amount: 5 }],
  ['an unknown resolution', { type: 'resolve_ticket', resolution: 'make_it_go_away' }],
  ['a string', 'open_ticket'],
  ['null', null],
])('rejects %s', (_name, action) => {
  expect(validate(action)).toBe(false);
});

it('is cut from the same DTO definitions as the OpenAPI document', async () => {
  const document = (await request(app.getHttpServer()).get('/openapi.json').expect(200)).body;
  const components = document.components.schemas;
  // OpenAPI 3.0 spells "or null" as `nullable`, JSON Schema 2020-12 as a "null" type; `example` is `examples`
  // there, and the document's extensions (x-…, which descriptions also state) are left out: the only differences.
  const asJsonSchema = (_key: string, value: any) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const entries = Object.entries(value)
      .filter(([k]) => !k.startsWith('x-'))
      .map(([k, v]) => (k === 'example' ? ['examples', [v]] : [k, v]));
    const out = Object.fromEntries(entries);
    if (out.nullable === true && typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      delete out.nullable;
    }
    return out;
  };
  for (const name of Object.keys(schema.$defs)) {
    const fromDocument = JSON.stringify(components[name], asJsonSchema).replace(/#\/components\/schemas\//g, '#/$defs/');
    const fromActionSchema = JSON.stringify(schema.$defs[name]);
    expect(fromActionSchema).toBe(fromDocument);
  }
});
