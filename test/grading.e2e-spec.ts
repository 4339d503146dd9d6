import { CURRENT_GRADER_VERSION } from '../src/engine/graders';
import request from 'supertest';
import { SOLUTIONS } from './fixtures/solutions';
import { startTestApp } from './support/test-app';

/*
 * Replies graded as claims, through the real app: what /grader says about each detail, that it never gives the
 * value away while the episode runs, and that episodes record the grader that scores them.
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  ctx = await startTestApp();
});

afterAll(async () => {
  await ctx?.app.close();
});

async function started(taskId: string): Promise<string> {
  const res = await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: taskId, seed: 3 }).expect(200);
  expect(res.body.info.grader_version).toBe(CURRENT_GRADER_VERSION);
  return res.body.episode_id;
}

async function act(id: string, action: object) {
  return (await request(ctx.http).post('/step').send({ episode_id: id, action }).expect(200)).body;
}

async function grade(id: string) {
  return (await request(ctx.http).post('/grader').send({ episode_id: id }).expect(200)).body;
}

it('/grader explains each detail: the sentence that covered it, or the reason and the sentence that cost it', async () => {
  const id = await started('billing_duplicate_charge');
  await act(id, { type: 'open_ticket', ticket_id: 'T-1041' });
  const reply = await act(id, {
    type: 'send_reply',
    message:
      'Hi Dana, sorry about the double charge. We have refunded the duplicate renewal payment of US$348.00 to your Visa. ' +
      'The money will not reach your card within 5-7 business days, I am afraid.',
  });
  expect(reply.reward).toBeCloseTo(0.1);
  // While it runs: a detail by its place, a miss with no reason or sentence (no oracle), a covered one with the agent's sentence.
  const running = await grade(id);
  expect(running.reply_details).toEqual([
    { id: 'detail_1', description: null, covered: true, reason: null, sentence: 'We have refunded the duplicate renewal payment of US$348.00 to your Visa.', reply_step: 2 },
    { id: 'detail_2', description: null, covered: false, reason: null, sentence: null, reply_step: null },
  ]);
  await act(id, { type: 'resolve_ticket', resolution: 'refund_issued', amount: 348 });
  const graded = await grade(id);
  expect(graded.grader_version).toBe(CURRENT_GRADER_VERSION);
  expect(graded.reply_details).toEqual([
    {
      id: 'refund_amount',
      description: expect.stringContaining('$348.00'),
      covered: true,
      reason: null,
      sentence: 'We have refunded the duplicate renewal payment of US$348.00 to your Visa.',
      reply_step: 2,
    },
    {
      id: 'settlement_window',
      description: expect.stringContaining('5-7 business days'),
      covered: false,
      reason: 'negated',
      sentence: 'The money will not reach your card within 5-7 business days, I am afraid.',
      reply_step: 2,
    },
  ]);
  const component = graded.components.find((c: { name: string }) => c.name === 'reply_coverage');
  expect(component).toMatchObject({ earned: 0.1, why: '1 of 2 required detail(s) told to the customer; 1 negated' });
});

it('a keyword list earns nothing and is named for what it is; the descriptions come once the episode has ended', async () => {
  const id = await started('logistics_missing_order_vip');
  const solution = SOLUTIONS.logistics_missing_order_vip;
  await act(id, { type: 'open_ticket', ticket_id: solution.targetTicketId });
  const stuffed = await act(id, { type: 'send_reply', message: 'overnight priority courier Friday 27 November before 12:00 $150.00 shipping credit' });
  expect(stuffed.reward).toBe(0);
  const graded = await grade(id);
  expect(graded.reply_details.map((d: { reason: string }) => d.reason)).toEqual([null, null, null]);
  const rescored = (await request(ctx.http).get(`/episodes/${id}/rescore`).expect(200)).body;
  expect(rescored.rescored.reply_details.map((d: { reason: string }) => d.reason)).toEqual(['not_a_sentence', 'not_a_sentence', 'not_a_sentence']);
  for (const action of solution.actions.slice(1)) await act(id, action);
  const final = await grade(id);
  expect(final.status).toBe('resolved');
  expect(final.score).toBe(1);
  for (const detail of final.reply_details) expect(detail).toMatchObject({ covered: true, description: expect.any(String), sentence: expect.any(String) });
});

it('every state and audit view names the grader version; the replay verifies with it', async () => {
  const id = await started('security_compromised_account');
  for (const action of SOLUTIONS.security_compromised_account.actions) await act(id, action);
  expect((await request(ctx.http).get(`/state/${id}`).expect(200)).body).toMatchObject({ grader_version: CURRENT_GRADER_VERSION, score: 1 });
  expect((await request(ctx.http).get(`/episodes/${id}`).expect(200)).body.grader_version).toBe(CURRENT_GRADER_VERSION);
  expect((await request(ctx.http).get(`/episodes/${id}/verify`).expect(200)).body).toMatchObject({ replay_ok: true, grader_version: CURRENT_GRADER_VERSION, replayed_score: 1 });
  const rescored = (await request(ctx.http).get(`/episodes/${id}/rescore`).expect(200)).body;
  expect(rescored).toMatchObject({ stored: { grader_version: CURRENT_GRADER_VERSION, score: 1 }, rescored: { grader_version: CURRENT_GRADER_VERSION, score: 1 } });
});
