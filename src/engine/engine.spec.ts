import { DEFAULT_TASKS_DIR } from '../config/app-config';
import { loadTaskFiles } from '../tasks/task-files';
import { SOLUTIONS, correctReply } from '../../test/fixtures/solutions';
import type { Action } from './actions';
import { reset, step, EpisodeFinishedError } from './engine';
import { COMPONENT_WEIGHTS, grade, type ComponentName } from './grader';
import type { NearMiss, ReplyClaim } from './graders/v2/claims';
import type { EpisodeState } from './state';
import type { Task } from './task.schema';
import { RESOLUTIONS_REQUIRING_AMOUNT } from './vocabulary';

const tasks = loadTaskFiles(DEFAULT_TASKS_DIR).map((entry) => entry.task);

function run(task: Task, actions: Action[], seed = 7) {
  let state = reset(task, seed);
  const rewards: number[] = [];
  for (const action of actions) {
    const result = step(task, state, action);
    rewards.push(result.reward_milli);
    state = result.state;
  }
  return { state, rewards };
}

function earned(task: Task, state: EpisodeState, name: ComponentName): number {
  return grade(task, state).components.find((c) => c.name === name)!.earned_milli;
}

function otherTicketId(task: Task): string {
  return task.inbox.find((t) => t.id !== task.answer_key.target_ticket_id && t.status !== 'resolved')!.id;
}

const open = (task: Task): Action => ({ type: 'open_ticket', ticket_id: task.answer_key.target_ticket_id });

it('weights sum to exactly 1.0', () => {
  expect(Object.values(COMPONENT_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(1000);
});

describe.each(tasks.map((task) => [task.id, task] as const))('%s', (taskId, task) => {
  const solution = SOLUTIONS[taskId];
  const key = task.answer_key;

  it('the scripted correct trajectory scores exactly 1.0 and ends the episode', () => {
    const { state, rewards } = run(task, solution.actions);
    expect(state.score_milli).toBe(1000);
    expect(rewards.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(state.done).toBe(true);
    expect(state.status).toBe('resolved');
    expect(grade(task, state).components.every((c) => c.earned_milli === c.weight_milli)).toBe(true);
  });

  it('opening the target alone earns exactly its weight', () => {
    const { state, rewards } = run(task, [open(task)]);
    expect(rewards).toEqual([COMPONENT_WEIGHTS.opened_target]);
    expect(state.score_milli).toBe(COMPONENT_WEIGHTS.opened_target);
  });

  it('consulting the required policies alone earns exactly its weight', () => {
    const searches = solution.actions.filter((a) => a.type === 'search_policy');
    const { state } = run(task, searches);
    expect(state.score_milli).toBe(COMPONENT_WEIGHTS.policy_consulted);
    expect(earned(task, state, 'policy_consulted')).toBe(COMPONENT_WEIGHTS.policy_consulted);
  });

  it.each([
    ['priority', { type: 'set_priority', priority: key.priority }],
    ['routing', { type: 'route_ticket', team: key.team }],
    ['reply_coverage', { type: 'send_reply', message: correctReply(solution) }],
    ['resolution', { type: 'resolve_ticket', resolution: key.resolution.code, amount: key.resolution.amount }],
  ] as [ComponentName, Action][])('%s alone earns exactly its weight as the step reward', (name, action) => {
    const clean = JSON.parse(JSON.stringify(action)) as Action; // drops an undefined amount
    const { state, rewards } = run(task, [open(task), clean]);
    expect(rewards[1]).toBe(COMPONENT_WEIGHTS[name]);
    expect(earned(task, state, name)).toBe(COMPONENT_WEIGHTS[name]);
    expect(state.score_milli).toBe(COMPONENT_WEIGHTS.opened_target + COMPONENT_WEIGHTS[name]);
  });

  it('a wrong priority, team or resolution earns nothing for that component', () => {
    const wrongPriority = (['low', 'normal', 'high', 'urgent'] as const).find((p) => p !== key.priority)!;
    const wrongTeam = (['billing', 'logistics', 'general_support'] as const).find((t) => t !== key.team)!;
    const wrongCode = key.resolution.code === 'information_provided' ? 'no_action_needed' : 'information_provided';
    const { state, rewards } = run(task, [
      open(task),
      { type: 'set_priority', priority: wrongPriority },
      { type: 'route_ticket', team: wrongTeam },
      { type: 'resolve_ticket', resolution: wrongCode },
    ]);
    expect(rewards.slice(1)).toEqual([0, 0, 0]);
    expect(earned(task, state, 'priority')).toBe(0);
    expect(earned(task, state, 'routing')).toBe(0);
    expect(earned(task, state, 'resolution')).toBe(0);
  });

  it('the right resolution code with a wrong amount earns nothing', () => {
    // A key without an amount names a code that needs none (any family's, not one task's).
    if (key.resolution.amount === undefined) return expect(RESOLUTIONS_REQUIRING_AMOUNT).not.toContain(key.resolution.code);
    const { state } = run(task, [
      open(task),
      { type: 'resolve_ticket', resolution: key.resolution.code, amount: key.resolution.amount + 1 },
    ]);
    expect(earned(task, state, 'resolution')).toBe(0);
  });

  it('resolving a different ticket ends the episode with no resolution credit', () => {
    const { state } = run(task, [
      { type: 'open_ticket', ticket_id: otherTicketId(task) },
      { type: 'resolve_ticket', resolution: key.resolution.code, ...(key.resolution.amount === undefined ? {} : { amount: key.resolution.amount }) } as Action,
    ]);
    expect(state.done).toBe(true);
    expect(earned(task, state, 'resolution')).toBe(0);
  });

  it('decisions are commitments: the first priority and team set count, later changes earn and cost nothing', () => {
    const otherPriority = key.priority === 'low' ? 'normal' : 'low';
    const otherTeam = key.team === 'billing' ? 'logistics' : 'billing';
    const rightFirst = run(task, [
      open(task),
      { type: 'set_priority', priority: key.priority },
      { type: 'set_priority', priority: otherPriority },
      { type: 'route_ticket', team: key.team },
      { type: 'route_ticket', team: otherTeam },
    ]);
    expect(rightFirst.rewards).toEqual([COMPONENT_WEIGHTS.opened_target, COMPONENT_WEIGHTS.priority, 0, COMPONENT_WEIGHTS.routing, 0]);
    const wrongFirst = run(task, [
      open(task),
      { type: 'set_priority', priority: otherPriority },
      { type: 'set_priority', priority: key.priority },
      { type: 'route_ticket', team: otherTeam },
      { type: 'route_ticket', team: key.team },
    ]);
    expect(wrongFirst.rewards).toEqual([COMPONENT_WEIGHTS.opened_target, 0, 0, 0, 0]);
    expect(grade(task, wrongFirst.state).components.find((c) => c.name === 'priority')!.why).toMatch(/the first priority set is the one that counts/);
  });

  it('a ticket preset right earns nothing until the agent has opened it', () => {
    const preset = { ...task, inbox: task.inbox.map((t) => (t.id === key.target_ticket_id ? { ...t, priority: key.priority, team: key.team } : t)) };
    const idle = reset(preset, 1);
    expect(idle.score_milli).toBe(0);
    const opened = step(preset, idle, open(preset)).state;
    expect(earned(preset, opened, 'priority')).toBe(COMPONENT_WEIGHTS.priority);
    expect(earned(preset, opened, 'routing')).toBe(COMPONENT_WEIGHTS.routing);
  });

  it('policy_consulted needs each required article on top of a query that tells articles apart', () => {
    const vague = run(task, [{ type: 'search_policy', query: 'the' }, { type: 'search_policy', query: task.instruction.slice(0, 190) }]);
    expect(earned(task, vague.state, 'policy_consulted')).toBe(0);
    const reading = run(task, solution.readingQueries.map((query) => ({ type: 'search_policy', query }) as Action));
    expect(earned(task, reading.state, 'policy_consulted')).toBe(COMPONENT_WEIGHTS.policy_consulted);
  });

  it('spending the step budget ends the episode', () => {
    const actions: Action[] = Array.from({ length: task.max_steps }, () => ({ type: 'search_policy', query: 'refund' }));
    const { state } = run(task, actions);
    expect(state.done).toBe(true);
    expect(state.status).toBe('out_of_steps');
    expect(state.step_count).toBe(task.max_steps);
    expect(() => step(task, state, { type: 'search_policy', query: 'again' })).toThrow(EpisodeFinishedError);
  });

  it('is deterministic: the same task, seed and actions give identical states and rewards', () => {
    const first = run(task, solution.actions, 12345);
    const second = run(task, solution.actions, 12345);
    expect(JSON.stringify(second.state)).toBe(JSON.stringify(first.state));
    expect(second.rewards).toEqual(first.rewards);
  });

  it('the seed shuffles the inbox, the same way every time', () => {
    const orders = new Set([1, 2, 3, 4, 5, 6].map((seed) => reset(task, seed).inbox_order.join(',')));
    expect(orders.size).toBeGreaterThan(1);
    expect(reset(task, 3).inbox_order).toEqual(reset(task, 3).inbox_order);
  });

  it('well-formed actions that cannot apply use a step, earn nothing and say why', () => {
    const { state, rewards } = run(task, [
      { type: 'send_reply', message: correctReply(solution) },
      { type: 'open_ticket', ticket_id: 'T-0000' },
      { type: 'set_priority', priority: key.priority },
    ]);
    expect(rewards).toEqual([0, 0, 0]);
    expect(state.step_count).toBe(3);
    expect(state.history.map((h) => h.error)).toEqual([
      'open a ticket before you reply',
      'no ticket "T-0000" in the inbox',
      'open a ticket before you set the priority',
    ]);
    expect(state.last_action_error).toBe('open a ticket before you set the priority');
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])(
    'a ticket id named %j is an unknown ticket, also in a state read back from JSON or naming it active',
    (ticketId) => {
      const changes: Action[] = [
        { type: 'set_priority', priority: 'urgent' },
        { type: 'route_ticket', team: 'vip_concierge' },
        { type: 'resolve_ticket', resolution: 'no_action_needed' },
      ];
      const { state } = run(task, [{ type: 'open_ticket', ticket_id: ticketId }, ...changes]);
      expect(state.history[0].error).toBe(`no ticket "${ticketId}" in the inbox`);
      expect(state.active_ticket_id).toBeNull();
      // As an earlier release may have stored it: a plain JSON snapshot whose active ticket is that name.
      const stored: EpisodeState = { ...JSON.parse(JSON.stringify(reset(task, 7))), active_ticket_id: ticketId };
      let current = stored;
      for (const action of changes) {
        const result = step(task, current, action);
        expect(result.error).toMatch(/^open a ticket before you/);
        current = result.state;
      }
      expect(({} as Record<string, unknown>).priority).toBeUndefined();
      expect((Object as unknown as Record<string, unknown>).team).toBeUndefined();
      expect((Object.prototype.toString as unknown as Record<string, unknown>).priority).toBeUndefined();
    },
  );

  it('a ticket that is already resolved cannot be changed', () => {
    const resolved = task.inbox.find((t) => t.status === 'resolved')!;
    const { state } = run(task, [
      { type: 'open_ticket', ticket_id: resolved.id },
      { type: 'set_priority', priority: 'urgent' },
    ]);
    expect(state.last_action_error).toBe(`ticket ${resolved.id} is already resolved`);
    expect(state.tickets[resolved.id].priority).toBe(resolved.priority);
  });

  it('replies that quote every policy article in full do not earn full reply credit', () => {
    const quotes: Action[] = task.knowledge_base.map((a) => ({ type: 'send_reply', message: `${a.title}. ${a.body}` }));
    const { state } = run(task, [open(task), ...quotes].slice(0, task.max_steps));
    expect(earned(task, state, 'reply_coverage')).toBeLessThan(COMPONENT_WEIGHTS.reply_coverage);
  });

  it('never mutates the state it is given', () => {
    const before = reset(task, 1);
    const snapshot = JSON.stringify(before);
    step(task, before, open(task));
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  it('never mutates any earlier state, through every kind of action (states are shared with the step cache)', () => {
    // Deep-frozen: any write into an earlier state, however deep, throws in strict mode.
    const deepFreeze = <T>(value: T): T => {
      if (value && typeof value === 'object') {
        Object.values(value).forEach(deepFreeze);
        Object.freeze(value);
      }
      return value;
    };
    for (const taskId of Object.keys(SOLUTIONS)) {
      const solved = tasks.find((t) => t.id === taskId)!;
      const actions: Action[] = [
        { type: 'search_policy', query: solved.title },
        { type: 'open_ticket', ticket_id: otherTicketId(solved) },
        { type: 'send_reply', message: 'Looking into it.' },
        ...SOLUTIONS[taskId].actions,
      ];
      let state = deepFreeze(reset(solved, 3));
      const snapshots = [JSON.stringify(state)];
      const states = [state];
      for (const action of actions.slice(0, solved.max_steps)) {
        if (state.done) break;
        state = deepFreeze(step(solved, state, action).state);
        states.push(state);
        snapshots.push(JSON.stringify(state));
      }
      expect(state.done).toBe(true);
      expect(states.map((s) => JSON.stringify(s))).toEqual(snapshots);
    }
  });
});

/** A plain sentence asserting a value for the claim's event, as a careless agent would write it. */
function assertion(claim: ReplyClaim, value: NearMiss): string {
  const event = claim.about?.[0] ?? 'it';
  if (value.kind === 'money') return `To confirm, the ${event} is $${value.amount.toFixed(2)}.`;
  if (value.kind === 'date') return `The ${event} arrives on ${value.date}.`;
  return value.min === value.max ? `The ${event} takes ${value.max} business days.` : `The ${event} takes ${value.min}-${value.max} business days.`;
}

const withNearMisses = tasks.filter((t) => t.answer_key.reply_claims!.some((c) => c.near_misses?.length));

describe.each(withNearMisses.map((task) => [task.id, task] as const))('%s: one value per slot', (taskId, task) => {
  it.each(task.answer_key.reply_claims!.filter((c) => c.near_misses?.length).map((c) => [c.id, c] as const))(
    'a correct reply that also asserts a near miss for %s earns nothing for that detail',
    (_id, claim) => {
      const claims = task.answer_key.reply_claims!;
      const { state } = run(task, [
        open(task),
        { type: 'send_reply', message: `${correctReply(SOLUTIONS[taskId])} ${assertion(claim, claim.near_misses![0])}` },
      ]);
      expect(earned(task, state, 'reply_coverage')).toBe(Math.floor((COMPONENT_WEIGHTS.reply_coverage * (claims.length - 1)) / claims.length));
      expect(grade(task, state).reply_details.find((d) => d.id === claim.id)).toMatchObject({ covered: false, reason: 'conflicting_value' });
    },
  );
});

