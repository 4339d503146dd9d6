import fc from 'fast-check';
import type { OpenAPIObject } from '@nestjs/swagger';
import { codePointLength } from '../src/common/field-rules';
import { createValidationPipe } from '../src/common/validation';
import { loadConfig } from '../src/config/app-config';
import { StepRequestDto } from '../src/episodes';
import { compileBodyCheck } from '../src/openapi/body-check';
import { ApiDocumentService } from '../src/openapi/api-document.service';
import type { OpenApiDocument, Schema } from './support/openapi/openapi-model';
import { SchemaArbitraries } from './support/openapi/schema-arbitraries';
import { SchemaValidator } from './support/openapi/schema-validator';
import { startTestApp } from './support/test-app';

/*
 * The step body is checked by a validator compiled from its schema in the OpenAPI document (src/openapi/body-check.ts),
 * and only the bodies it refuses go through class-validator. That is sound only if the two accept and refuse exactly
 * the same bodies: checked here on the schema-driven inputs of the conformance test (bodies that keep every
 * documented constraint, and bodies that break one, each way the schema allows), and on the edge cases the DTO's
 * rules were written for.
 */

/** The step DTO's rules as class-validator applies them, without the compiled check (registered for StepRequestDto only). */
class ClassValidatorOnly extends StepRequestDto {}

const { maxMessageLength: MAX_MESSAGE_LENGTH, maxQueryLength: MAX_QUERY_LENGTH } = loadConfig({});
let document: OpenAPIObject;
let compiled: (value: unknown) => boolean;
const pipe = createValidationPipe();
/**
 * What POST /step accepts before applying the step: the DTO's rules (class-validator), then the configured reply and
 * query lengths (EpisodesService; the document states them as maxLength, and the test app runs with the defaults).
 */
const classValidatorAccepts = async (value: unknown) => {
  let body: StepRequestDto;
  try {
    body = (await pipe.transform(value, { type: 'body', metatype: ClassValidatorOnly, data: '' })) as StepRequestDto;
  } catch {
    return false;
  }
  const action = body.action as { type: string; message?: string; query?: string };
  if (action.type === 'send_reply') return codePointLength(action.message!) <= MAX_MESSAGE_LENGTH;
  if (action.type === 'search_policy') return codePointLength(action.query!) <= MAX_QUERY_LENGTH;
  return true;
};

beforeAll(async () => {
  const ctx = await startTestApp();
  document = ctx.app.get(ApiDocumentService).get();
  await ctx.app.close();
  compiled = compileBodyCheck(document, 'StepRequestDto');
});

it('accepts and refuses exactly the step bodies class-validator does, on the conformance test\'s generated bodies', async () => {
  const openapi = document as unknown as OpenApiDocument;
  const validator = new SchemaValidator(openapi, { closedObjects: false });
  const schemas = new SchemaArbitraries(openapi, () => undefined, (schema, value) => validator.problems(schema, value) === null);
  const body: Schema = { $ref: '#/components/schemas/StepRequestDto' };
  const broken = schemas.invalid(body, 'body:').map((way) => way.map((b) => b.value));
  const bodies = fc.sample(fc.oneof({ arbitrary: schemas.valid(body, 'body:'), weight: broken.length }, ...broken.map((arbitrary) => ({ arbitrary, weight: 1 }))), { numRuns: Number(process.env.BODY_CHECK_RUNS ?? 3000), seed: 20261203 });
  let accepted = 0;
  const disagreements: string[] = [];
  for (const value of bodies) {
    const expected = await classValidatorAccepts(value);
    if (expected) accepted++;
    if (compiled(value) !== expected) disagreements.push(`${expected ? 'class-validator accepts' : 'class-validator refuses'}: ${JSON.stringify(value).slice(0, 300)}`);
  }
  expect(disagreements).toEqual([]);
  // Both kinds were exercised in earnest.
  expect(accepted).toBeGreaterThan(bodies.length / 5);
  expect(bodies.length - accepted).toBeGreaterThan(bodies.length / 5);
});

const step = (action: unknown, extra: Record<string, unknown> = {}) => ({ episode_id: 'ep-1', action, ...extra });
const EDGE_CASES: unknown[] = [
  step({ type: 'open_ticket', ticket_id: 'T-1' }),
  step({ type: 'open_ticket', ticket_id: '' }),
  step({ type: 'open_ticket', ticket_id: 'x'.repeat(64) }),
  step({ type: 'open_ticket', ticket_id: 'x'.repeat(65) }),
  step({ type: 'open_ticket', ticket_id: '😀'.repeat(64) }), // 64 code points, 128 UTF-16 units
  step({ type: 'open_ticket', ticket_id: '😀'.repeat(65) }),
  step({ type: 'open_ticket', ticket_id: 'T-1', extra: 1 }),
  step({ type: 'open_ticket' }),
  step({ type: 'open_ticket', ticket_id: null }),
  step({ type: 'open_ticket', ticket_id: 5 }),
  step({ type: 'search_policy', query: '   ' }),
  step({ type: 'search_policy', query: '\u00a0\u2003' }),
  step({ type: 'search_policy', query: ' refund ' }),
  step({ type: 'search_policy', query: 'q'.repeat(1000) }),
  step({ type: 'search_policy', query: 'q'.repeat(1001) }),
  step({ type: 'send_reply', message: 'Hello' }),
  step({ type: 'send_reply', message: '\n\t' }),
  step({ type: 'send_reply', message: 'm'.repeat(8000) }),
  step({ type: 'send_reply', message: 'm'.repeat(8001) }),
  step({ type: 'set_priority', priority: 'high' }),
  step({ type: 'set_priority', priority: 'HIGH' }),
  step({ type: 'set_priority', priority: null }),
  step({ type: 'route_ticket', team: 'billing' }),
  step({ type: 'route_ticket', team: 'nobody' }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued', amount: 19.99 }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued', amount: 0.005 }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued', amount: 1e-7 }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued', amount: 0.57 }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued', amount: 1_000_000 }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued', amount: 1_000_000.01 }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued', amount: -1 }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued' }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued', amount: null }),
  step({ type: 'resolve_ticket', resolution: 'refund_issued', amount: '12' }),
  step({ type: 'resolve_ticket', resolution: 'replacement_dispatched' }),
  step({ type: 'resolve_ticket', resolution: 'replacement_dispatched', amount: 12.5 }),
  step({ type: 'resolve_ticket', resolution: 'information_provided' }),
  step({ type: 'resolve_ticket', resolution: 'information_provided', amount: 0 }),
  step({ type: 'resolve_ticket', resolution: 'information_provided', amount: null }),
  step({ type: 'resolve_ticket', resolution: 'made_up' }),
  step({ type: 'made_up' }),
  step({}),
  step(null),
  step([]),
  step('open_ticket'),
  { action: { type: 'set_priority', priority: 'low' } },
  step({ type: 'set_priority', priority: 'low' }, { episode_id: '' }),
  step({ type: 'set_priority', priority: 'low' }, { episode_id: '.' }),
  step({ type: 'set_priority', priority: 'low' }, { episode_id: '..' }),
  step({ type: 'set_priority', priority: 'low' }, { episode_id: '...' }),
  step({ type: 'set_priority', priority: 'low' }, { episode_id: 'a/b' }),
  step({ type: 'set_priority', priority: 'low' }, { episode_id: 'e'.repeat(65) }),
  step({ type: 'set_priority', priority: 'low' }, { episode_id: null }),
  step({ type: 'set_priority', priority: 'low' }, { request_id: 'r-1' }),
  step({ type: 'set_priority', priority: 'low' }, { request_id: null }),
  step({ type: 'set_priority', priority: 'low' }, { request_id: '' }),
  step({ type: 'set_priority', priority: 'low' }, { request_id: 'r'.repeat(129) }),
  step({ type: 'set_priority', priority: 'low' }, { timeout_s: 30 }),
  step({ type: 'set_priority', priority: 'low' }, { timeout_s: 0 }),
  step({ type: 'set_priority', priority: 'low' }, { timeout_s: 3600 }),
  step({ type: 'set_priority', priority: 'low' }, { timeout_s: 3600.5 }),
  step({ type: 'set_priority', priority: 'low' }, { timeout_s: null }),
  step({ type: 'set_priority', priority: 'low' }, { timeout_s: '30' }),
  step({ type: 'set_priority', priority: 'low' }, { constructor: 1 }),
  step({ type: 'set_priority', priority: 'low', toString: 'x' }),
  step({ type: 'set_priority', priority: 'low' }, { extra: null }),
  step({ type: 'set_priority', priority: 'low', extra: null }),
];

it.each(EDGE_CASES.map((value) => [JSON.stringify(value).slice(0, 90), value]))('agrees with class-validator on %s', async (_name, value) => {
  expect(compiled(value)).toBe(await classValidatorAccepts(value));
});
