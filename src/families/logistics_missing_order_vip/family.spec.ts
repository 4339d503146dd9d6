import { AgentEnvironment } from '../../../tools/validity/agents';
import { grade } from '../../engine/grader';
import { searchPolicies } from '../../engine/policy-search';
import type { SolverOptions, Task } from '../kit';
import { dayOf, overnightDelivery, ukOffsetMinutes } from './calendar';
import { logisticsMissingOrderVip as family } from './family';
import { solver } from './solver';

// What every family proves (solver, distinctness, memorisation, ablations, budgets) is src/families/families.spec.ts.

const SEEDS = Array.from({ length: 200 }, (_, i) => i);

interface Played {
  score: number;
  penalties: string[];
}

function play(task: Task, seed: number, options: SolverOptions = {}): Played {
  const env = new AgentEnvironment(task, seed, 'dense');
  solver.solve(env, options);
  return { score: env.state.score_milli / 1000, penalties: grade(task, env.state).penalties.map((p) => p.id) };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Plays the target ticket with the given reply (and the key's decisions), and returns the grade. */
function gradeReply(task: Task, message: string) {
  const key = task.answer_key;
  const env = new AgentEnvironment(task, 1, 'dense');
  env.step({ type: 'open_ticket', ticket_id: key.target_ticket_id });
  env.step({ type: 'send_reply', message });
  return grade(task, env.state);
}

/** The first seed whose instance satisfies the predicate. */
function seedWhere(predicate: (task: Task) => boolean): Task {
  for (let seed = 0; seed < 2000; seed++) {
    const task = family.generate(seed);
    if (predicate(task)) return task;
  }
  throw new Error('no such instance in 2000 seeds');
}

const target = (task: Task) => task.inbox.find((t) => t.id === task.answer_key.target_ticket_id)!;
const isEventCase = (task: Task) => task.answer_key.resolution.code === 'replacement_dispatched';
const claim = (task: Task, id: string) => task.answer_key.reply_claims!.find((c) => c.id === id)!;

describe('logistics_missing_order_vip family', () => {
  it('keeps the VIP event-critical incident as about half of the instances, with every other case present', () => {
    const kinds = new Map<string, number>();
    for (let seed = 0; seed < 1000; seed++) {
      const task = family.generate(seed);
      const kind = `${task.answer_key.resolution.code}:${target(task).customer.tier}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    expect(kinds.get('replacement_dispatched:vip')).toBeGreaterThanOrEqual(420);
    expect(kinds.get('replacement_dispatched:vip')).toBeLessThanOrEqual(580);
    for (const kind of ['carrier_trace_opened:vip', 'carrier_trace_opened:premium', 'carrier_trace_opened:standard']) expect(kinds.get(kind)).toBeGreaterThan(50);
  });

  it('has 5-6 tickets, one already resolved, and a knowledge base with near-misses', () => {
    for (const seed of SEEDS) {
      const task = family.generate(seed);
      expect(task.inbox.length).toBeGreaterThanOrEqual(5);
      expect(task.inbox.length).toBeLessThanOrEqual(6);
      expect(task.inbox.some((t) => t.status === 'resolved')).toBe(true);
      expect(task.knowledge_base.length).toBeGreaterThan(task.answer_key.required_article_ids.length + 3);
    }
  });

  it('ignoring the contract notes fails every event-critical incident', () => {
    const played = SEEDS.map((seed) => {
      const task = family.generate(seed);
      return { event: isEventCase(task), score: play(task, seed, { ignoreContractNotes: true }).score };
    });
    expect(mean(played.filter((p) => p.event).map((p) => p.score))).toBeLessThanOrEqual(0.1);
  });

  it("the first search hit for the customer's words is the standard article", () => {
    for (const seed of SEEDS) {
      const task = family.generate(seed);
      const top = searchPolicies(task, 'order not arrived')[0];
      expect(top.title).toBe('Orders that have not arrived (standard and premium customers)');
    }
  });
});

describe('logistics_missing_order_vip policy logic', () => {
  it('computes the overnight delivery date from the weekday and the 15:00 cut-off', () => {
    const cutoff = 15 * 60;
    const at = (y: number, m: number, d: number, hh: number, mm = 0) => ({ day: dayOf(y, m, d), minutes: hh * 60 + mm });
    expect(overnightDelivery(at(2026, 11, 26, 10), cutoff)).toBe(dayOf(2026, 11, 27)); // Thursday morning: Friday
    expect(overnightDelivery(at(2026, 11, 26, 15), cutoff)).toBe(dayOf(2026, 11, 30)); // Thursday at the cut-off: Monday
    expect(overnightDelivery(at(2026, 11, 27, 14, 59), cutoff)).toBe(dayOf(2026, 11, 30)); // Friday before it: Monday
    expect(overnightDelivery(at(2026, 11, 27, 16), cutoff)).toBe(dayOf(2026, 12, 1)); // Friday after it: Tuesday
    expect(overnightDelivery(at(2026, 11, 28, 9), cutoff)).toBe(dayOf(2026, 12, 1)); // Saturday: Tuesday
  });

  it('knows UK summer time', () => {
    expect(ukOffsetMinutes(dayOf(2027, 3, 27))).toBe(0);
    expect(ukOffsetMinutes(dayOf(2027, 3, 28))).toBe(60);
    expect(ukOffsetMinutes(dayOf(2026, 10, 24))).toBe(60);
    expect(ukOffsetMinutes(dayOf(2026, 10, 25))).toBe(0);
  });

  it('derives the team and the credit from the agreement, amendments included', () => {
    const amended = seedWhere((t) => isEventCase(t) && target(t).contract_notes.some((n) => /shipping credit in .* is now/.test(n)));
    const notes = target(amended).contract_notes.join(' ');
    const now = Number(/is now \$([\d,.]+)/.exec(notes)![1].replace(/,/g, ''));
    expect(amended.answer_key.resolution.amount).toBe(now);
    expect(amended.answer_key.team).toBe(/owned by the VIP Concierge team/.test(notes) ? 'vip_concierge' : 'logistics');
  });

  it('treats an event-critical order stalled under its threshold, or a non-VIP one, as a trace', () => {
    const under = seedWhere((t) => !isEventCase(t) && target(t).customer.tier === 'vip' && target(t).contract_notes.some((n) => /flagged event-critical at checkout/.test(n)));
    expect(under.answer_key.priority).toBe('high');
    expect(under.answer_key.resolution).toEqual({ code: 'carrier_trace_opened' });
    const standard = seedWhere((t) => target(t).customer.tier !== 'vip' && target(t).contract_notes.some((n) => /flagged event-critical/.test(n)));
    expect(standard.answer_key.team).toBe('logistics');
    expect(standard.answer_key.resolution).toEqual({ code: 'carrier_trace_opened' });
  });
});

describe('logistics_missing_order_vip replies', () => {
  const event = seedWhere((t) => isEventCase(t) && target(t).contract_notes.some((n) => /shipping credit in .* is now/.test(n)));
  const trace = seedWhere((t) => !isEventCase(t) && target(t).customer.tier === 'vip');
  const first = (task: Task) => target(task).customer.name.split(' ')[0];
  const order = (task: Task) => /SO-\d+/.exec(target(task).body)![0];

  function eventReply(task: Task, delivery: string, credit: number): string {
    return `Dear ${first(task)}, we are sending a replacement for ${order(task)} by overnight priority courier at no charge. It will be delivered on ${delivery}. We have also applied a shipping credit of $${credit.toFixed(2)} to your account.`;
  }
  const deliveryDate = (task: Task) => {
    const c = claim(task, 'delivery_date') as { date: string; by_time: string };
    const d = new Date(`${c.date}T00:00:00Z`);
    return `${d.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' })}, ${d.toLocaleDateString('en-US', { month: 'long', timeZone: 'UTC' })} ${d.getUTCDate()}, before ${c.by_time}`;
  };
  const covered = (task: Task, message: string) => Object.fromEntries(gradeReply(task, message).reply_details.map((d) => [d.id, d.covered]));

  it('credits a correct event reply in full', () => {
    const credit = event.answer_key.resolution.amount!;
    expect(covered(event, eventReply(event, deliveryDate(event), credit))).toEqual({ overnight_courier: true, delivery_date: true, shipping_credit: true });
  });

  it("does not credit the credit the amendment replaced, nor the ground window or a wrong day", () => {
    const credit = event.answer_key.resolution.amount!;
    const previous = Number(/replacing \$([\d,.]+)/.exec(target(event).contract_notes.join(' '))![1].replace(/,/g, ''));
    expect(covered(event, eventReply(event, deliveryDate(event), previous)).shipping_credit).toBe(false);
    const ground = /Standard ground: (\d+) to (\d+) business days/.exec(event.knowledge_base.map((a) => a.body).join(' '))!;
    expect(covered(event, eventReply(event, `within ${ground[1]}-${ground[2]} business days`, credit)).delivery_date).toBe(false);
    const wrong = (claim(event, 'delivery_date') as { near_misses: { kind: string; date?: string }[] }).near_misses.find((n) => n.kind === 'date')!;
    const d = new Date(`${wrong.date}T00:00:00Z`);
    const wrongDay = `${d.toLocaleDateString('en-US', { month: 'long', timeZone: 'UTC' })} ${d.getUTCDate()} before 12:00`;
    expect(covered(event, eventReply(event, wrongDay, credit)).delivery_date).toBe(false);
  });

  it('penalises opening a carrier trace first on an event-critical incident', () => {
    const graded = gradeReply(event, `Dear ${first(event)}, we have opened a carrier trace on ${order(event)} and will update you once the carrier replies.`);
    expect(graded.penalties.map((p) => p.id)).toContain('opens_trace_first');
  });

  it('penalises promising an overnight replacement where the policy is a trace, and credits a trace reply', () => {
    const graded = gradeReply(trace, `Dear ${first(trace)}, we are sending a replacement by overnight priority courier today.`);
    expect(graded.penalties.map((p) => p.id)).toContain('promises_overnight_replacement');
    const days = (claim(trace, 'trace_result_window') as { min: number }).min;
    const goodwill = (claim(trace, 'goodwill_credit') as { amount: number }).amount;
    const reply = `Dear ${first(trace)}, we've started a carrier trace on ${order(trace)}; you'll hear back with the trace result within ${days} working days. We've also added a goodwill credit of $${goodwill.toFixed(2)} to your account.`;
    const verdicts = gradeReply(trace, reply);
    expect(verdicts.reply_details.every((d) => d.covered)).toBe(true);
    expect(verdicts.penalties).toEqual([]);
  });
});
