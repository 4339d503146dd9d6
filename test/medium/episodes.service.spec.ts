import { ConflictError, InvalidFieldError, NotFoundError, TooManyError } from '../../src/common/errors/domain-errors';
import { loadConfig } from '../../src/config/app-config';
import { parseTask } from '../../src/tasks/task-files';
import { EpisodesService } from '../../src/episodes/episodes.service';
import { Metrics } from '../../src/metrics';
import { SOLUTIONS } from '../fixtures/solutions';
import { InMemoryEpisodeRepository, NO_RUN_CELLS } from './in-memory-episode.repository';
import { taskCatalogInMemory } from './task-catalog';

/*
 * The middle tier: the episodes service's own logic (orchestration, idempotency, limits, errors) against an
 * in-memory repository and the real task catalogue; no HTTP, no SQLite.
 */

async function setup(env: Record<string, string> = {}) {
  const { catalog, stored } = await taskCatalogInMemory();
  const repository = new InMemoryEpisodeRepository();
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const service = new EpisodesService(catalog, repository, NO_RUN_CELLS, config, new Metrics(config));
  return { service, repository, catalog, stored };
}

const tenant = 'lab-a';
/** An agent key of lab-a, another agent key of the same tenant, a reader of it, and an agent of another tenant. */
const agentA = { tenantId: tenant, keyId: 'key-a', seesWholeTenant: false, seesTestGrades: false };
const agentA2 = { tenantId: tenant, keyId: 'key-a2', seesWholeTenant: false, seesTestGrades: false };
const readerA = { tenantId: tenant, keyId: 'key-r', seesWholeTenant: true, seesTestGrades: true };
const agentB = { tenantId: 'lab-b', keyId: 'key-b', seesWholeTenant: false, seesTestGrades: false };
const billing = SOLUTIONS.billing_duplicate_charge.actions;

it('reset stores the new episode with its task version and seed, and presents it like the wire shape', async () => {
  const { service, repository, catalog } = await setup();
  const started = await service.reset(agentA, { variant: 'canonical', task_id: 'security_compromised_account', seed: 4, tags: ['b', 'a', 'b'] });
  const stored = await repository.find(tenant, started.episode_id);
  expect(stored).toMatchObject({ taskId: 'security_compromised_account', seed: 4, tags: ['a', 'b'], status: 'active', version: 0 });
  expect(started.info).toMatchObject({ task_version: catalog.latest('security_compromised_account').version, seed: 4, tags: ['a', 'b'] });
  expect(started.observation.inbox.map((t) => t.ticket_id)).toEqual(stored!.state.inbox_order);
});

it('steps a whole episode to 1.0 and a finished episode refuses further steps', async () => {
  const { service, repository } = await setup();
  const { episode_id: id } = await service.reset(agentA, { variant: 'canonical', seed: 2 });
  let last;
  for (const action of billing) last = await service.step(agentA, id, action);
  expect(last).toMatchObject({ done: true, info: { score: 1, status: 'resolved' } });
  expect((await repository.listActions(tenant, id)).map((row) => row.stepIndex)).toEqual(billing.map((_, i) => i + 1));
  await expect(service.step(agentA, id, billing[0])).rejects.toThrow(ConflictError);
});

it('another tenant, or an unknown id, finds nothing', async () => {
  const { service } = await setup();
  const { episode_id: id } = await service.reset(agentA, { variant: 'canonical' });
  await expect(service.step(agentB, id, billing[0])).rejects.toThrow(NotFoundError);
  await expect(service.state(agentB, id)).rejects.toThrow(NotFoundError);
  await expect(service.grade(agentA, 'missing')).rejects.toThrow(NotFoundError);
  await expect(service.latestState(agentB)).rejects.toThrow(NotFoundError);
});

it('a retried request id returns the original response and applies nothing; with another action it is a conflict', async () => {
  const { service, repository } = await setup();
  const { episode_id: id } = await service.reset(agentA, { variant: 'canonical' });
  const first = await service.step(agentA, id, billing[0], 'r-1');
  // The same action written with its fields in another order is the same action.
  const again = await service.step(agentA, id, { ticket_id: billing[0].type === 'open_ticket' ? billing[0].ticket_id : '', type: 'open_ticket' } as never, 'r-1');
  expect(again).toEqual(first);
  await expect(service.step(agentA, id, billing[1], 'r-1')).rejects.toThrow(/already used on this episode for a different action/);
  expect(await repository.listActions(tenant, id)).toHaveLength(1);
});

it('configured limits on replies and queries are checked before anything is stored', async () => {
  const { service, repository } = await setup({ MAX_MESSAGE_LENGTH: '10', MAX_QUERY_LENGTH: '5' });
  const { episode_id: id } = await service.reset(agentA, { variant: 'canonical' });
  await expect(service.step(agentA, id, { type: 'send_reply', message: 'x'.repeat(11) })).rejects.toThrow(InvalidFieldError);
  await expect(service.step(agentA, id, { type: 'search_policy', query: 'refund' })).rejects.toThrow(/at most 5 characters/);
  expect(await repository.listActions(tenant, id)).toHaveLength(0);
});

it('the active-episode cap and unknown tasks are the client\'s problem, with the field named', async () => {
  const { service } = await setup({ MAX_ACTIVE_EPISODES_PER_TENANT: '1' });
  await service.reset(agentA, { variant: 'canonical' });
  await expect(service.reset(agentA, { variant: 'canonical' })).rejects.toThrow(TooManyError);
  const error = await service.reset(agentB, { variant: 'canonical', task_id: 'nope' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidFieldError);
  expect((error as InvalidFieldError).field).toBe('task_id');
});

it('an episode on a task version stored after start-up (by another process) is loaded on its first step', async () => {
  const { service, repository, catalog, stored } = await setup();
  const base = catalog.latest('billing_duplicate_charge');
  // Another version of the task, stored by "another process" after this catalogue started.
  const edited = parseTask('edited', { ...JSON.parse(base.contentJson), title: 'Duplicate charge (edited)' });
  stored.set(`billing_duplicate_charge@${edited.version}`, { taskId: 'billing_duplicate_charge', version: edited.version, contentJson: edited.contentJson });
  const { episode_id: id } = await service.reset(agentA, { variant: 'canonical', seed: 1 });
  const record = repository.episodes.get(`${tenant}\u0000${id}`)!;
  repository.episodes.set(`${tenant}\u0000${id}`, { ...record, taskVersion: edited.version });
  expect(() => catalog.version('billing_duplicate_charge', edited.version)).toThrow(/not loaded/);
  const stepped = await service.step(agentA, id, billing[0]);
  expect(stepped.reward).toBe(0.05);
  expect(catalog.version('billing_duplicate_charge', edited.version).title).toBe('Duplicate charge (edited)');
});

it('state and grade read the stored episode; the observation is what the agent saw last', async () => {
  const { service } = await setup();
  const { episode_id: id } = await service.reset(agentA, { variant: 'canonical', seed: 3 });
  const stepped = await service.step(agentA, id, billing[0]);
  expect(await service.observation(agentA, id)).toEqual(stepped.observation);
  const state = await service.state(agentA, id);
  expect(state).toMatchObject({ episode_id: id, step_count: 1, score: 0.05, actions: [{ step: 1, reward: 0.05 }] });
  expect((await service.grade(agentA, id)).components!.find((c) => c.name === 'opened_target')!.earned).toBe(0.05);
  expect((await service.latestState(agentA)).episode_id).toBe(id);
});

it('an agent key sees only the episodes it started; a reader key sees the whole tenant and runs nothing of its own', async () => {
  const { service } = await setup();
  const mine = (await service.reset(agentA, { variant: 'canonical', seed: 1 })).episode_id;
  const theirs = (await service.reset(agentA2, { variant: 'canonical', seed: 2 })).episode_id;
  await expect(service.state(agentA, theirs)).rejects.toThrow(NotFoundError);
  await expect(service.step(agentA, theirs, billing[0])).rejects.toThrow(NotFoundError);
  await expect(service.grade(agentA2, mine)).rejects.toThrow(NotFoundError);
  expect((await service.latestState(agentA)).episode_id).toBe(mine);
  expect((await service.latestState(agentA2)).episode_id).toBe(theirs);
  expect((await service.state(readerA, mine)).episode_id).toBe(mine);
  expect((await service.latestState(readerA)).episode_id).toBe(theirs);
});

describe('feedback "final" (evaluation): nothing that tells the agent how it is doing until the episode ends', () => {
  it('rewards are 0 and score, components, rewards, explanations and penalties are withheld while it runs', async () => {
    const { service, repository } = await setup();
    const started = await service.reset(agentA, { variant: 'canonical', seed: 5, feedback: 'final' });
    expect(started.info).toMatchObject({ feedback: 'final', score: null });
    expect(started.observation.score).toBeNull();
    const id = started.episode_id;
    const steps = [];
    for (const action of billing.slice(0, -1)) steps.push(await service.step(agentA, id, action));
    expect(steps.map((s) => s.reward)).toEqual(steps.map(() => 0));
    expect(steps.every((s) => s.info.score === null && s.observation.score === null)).toBe(true);
    for (const view of [await service.state(agentA, id), await service.latestState(agentA), await service.state(readerA, id)]) {
      expect(view).toMatchObject({ feedback: 'final', score: null, components: null });
      expect(view.actions.every((a) => a.reward === null && a.score_after === null)).toBe(true);
    }
    expect(await service.grade(agentA, id)).toMatchObject({ feedback: 'final', score: null, components: null, reply_details: null, penalties: null });
    expect((await service.observation(agentA, id)).score).toBeNull();
    // Stored as dense rewards, for the audit.
    expect((await repository.listActions(tenant, id)).map((row) => row.rewardMilli)).toEqual([50, 100, 150, 200, 200]);
  });

  it('the step that ends the episode carries the whole score, and everything appears once it has ended', async () => {
    const { service } = await setup();
    const { episode_id: id } = await service.reset(agentA, { variant: 'canonical', seed: 5, feedback: 'final' });
    const wrongFirst = [billing[0], { type: 'set_priority', priority: 'low' } as const, ...billing.slice(1)];
    let last;
    for (const action of wrongFirst) last = await service.step(agentA, id, action);
    expect(last).toMatchObject({ done: true, reward: 0.85, info: { score: 0.85 }, observation: { score: 0.85 } });
    const grade = await service.grade(agentA, id);
    expect(grade).toMatchObject({ score: 0.85, penalties: [] });
    expect(grade.components!.find((c) => c.name === 'priority')!.why).toMatch(/first priority set is the one that counts/);
    const state = await service.state(agentA, id);
    expect(state.actions.map((a) => a.reward)).toEqual([0.05, 0, 0.1, 0, 0.2, 0.2, 0.3]);
  });

  it('dense is the default', async () => {
    const { service, repository } = await setup();
    const started = await service.reset(agentA, { variant: 'canonical' });
    expect(started.info).toMatchObject({ feedback: 'dense', score: 0 });
    expect((await repository.find(tenant, started.episode_id))!.feedback).toBe('dense');
  });
});

it('while an episode runs, /grader names reply details by place and explains no miss (no oracle for probing values)', async () => {
  const { service } = await setup();
  const { episode_id: id } = await service.reset(agentA, { variant: 'canonical', seed: 6 });
  await service.step(agentA, id, billing[0]);
  // A probe reply: every candidate value in a sentence that cannot count (a keyword line in German).
  await service.step(agentA, id, { type: 'send_reply', message: 'Hallo Dana. Wert: $29.00. Wert: $348.00. Wert: $696.00. Wert: 5-7 business days.' });
  const running = await service.grade(agentA, id);
  expect(running.reply_details).toEqual([
    { id: 'detail_1', description: null, covered: false, reason: null, sentence: null, reply_step: null },
    { id: 'detail_2', description: null, covered: false, reason: null, sentence: null, reply_step: null },
  ]);
  expect(running.components!.find((c) => c.name === 'reply_coverage')!.why).toBe('0 of 2 required detail(s) told to the customer');
  for (const action of billing.slice(1)) await service.step(agentA, id, action);
  const ended = await service.grade(agentA, id);
  expect(ended.reply_details!.map((d) => d.id)).toEqual(['refund_amount', 'settlement_window']);
  expect(ended.reply_details!.every((d) => d.covered && d.description !== null)).toBe(true);
});

it('a step raced by another writer is computed again from what that writer stored; one that keeps losing is a 409', async () => {
  const { service, repository } = await setup();
  const id = (await service.reset(agentA, { variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 1 })).episode_id;
  const key = `${tenant}\u0000${id}`;
  const saveStep = repository.saveStep.bind(repository);
  // Another process moves the row on just before this one writes: once, then on every attempt.
  let races = 1;
  repository.saveStep = async (from, step, request) => {
    if (races-- > 0) {
      const stored = repository.episodes.get(key)!;
      repository.episodes.set(key, { ...stored, version: stored.version + 1, state: { ...stored.state, max_steps: 40 } });
    }
    return saveStep(from, step, request);
  };
  const first = await service.step(agentA, id, billing[0]);
  expect(first.observation.step_count).toBe(1);
  // Computed again from the raced row: its max_steps, not the copy's.
  expect(repository.episodes.get(key)!.state.max_steps).toBe(40);
  races = Infinity;
  await expect(service.step(agentA, id, billing[1])).rejects.toThrow(ConflictError);
  expect(await repository.listActions(tenant, id)).toHaveLength(1);
});

it('the grade view is decided for the caller: an agent caller is shown nothing of a test-split episode, ended or not; a reader caller all of it', async () => {
  const { service } = await setup();
  const started = await service.reset(agentA, { task_id: 'billing_duplicate_charge', split: 'test' });
  expect(started.info).toMatchObject({ split: 'test', feedback: 'final', score: null });
  const id = started.episode_id;
  let last;
  for (let i = 0; i < started.info.max_steps; i++) last = await service.step(agentA, id, { type: 'search_policy', query: 'refund' });
  expect(last).toMatchObject({ done: true, reward: 0, info: { status: 'out_of_steps', score: null }, observation: { score: null } });
  expect(await service.grade(agentA, id)).toMatchObject({ score: null, components: null, reply_details: null, penalties: null });
  expect(await service.state(agentA, id)).toMatchObject({ score: null, components: null });
  expect((await service.currentView(agentA, id)).observation.score).toBeNull();
  const asRead = await service.grade(readerA, id);
  expect(asRead.score).toEqual(expect.any(Number));
  expect(asRead.reply_details?.every((detail) => detail.description !== null)).toBe(true);
  expect((await service.state(readerA, id)).components).toHaveLength(6);
});
