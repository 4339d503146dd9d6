import { AgentEnvironment } from '../../../tools/validity/agents';
import { grade } from '../../engine/grader';
import type { Task } from '../kit';
import { CASE_KINDS, drawCase } from './case-facts';
import { billingDuplicateCharge, billingDuplicateChargeV2, billingDuplicateChargeV3 } from './family';
import { solver } from './solver';

// What every family proves (solver, distinctness, memorisation, ablations, budgets) is src/families/families.spec.ts.
const SEEDS = Array.from({ length: 200 }, (_, i) => i);
const tasks = new Map<number, Task>();
const generated = (seed: number): Task => {
  let task = tasks.get(seed);
  if (!task) tasks.set(seed, (task = billingDuplicateCharge.generate(seed)));
  return task;
};

const target = (task: Task) => task.inbox.find((t) => t.id === task.answer_key.target_ticket_id)!;

describe('billing_duplicate_charge family', () => {
  it('keeps the plan type in the contract notes only, and both duplicate-charge policies in the knowledge base', () => {
    for (const seed of SEEDS) {
      const task = generated(seed);
      const ticket = target(task);
      const visible = [ticket.subject, ticket.body, ...ticket.recent_events.map((e) => e.detail)].join(' ');
      expect(visible).not.toMatch(/annual|monthly|yearly|per year|per month/i);
      expect(ticket.contract_notes[0]).toMatch(/^Plan: \w+ (Annual|Monthly), /);
      const duplicatePolicies = task.knowledge_base.filter((a) => /duplicate|twice/i.test(a.title));
      expect(duplicatePolicies).toHaveLength(2);
      expect(task.answer_key.required_article_ids).toHaveLength(1);
      expect(duplicatePolicies.map((a) => a.id)).toContain(task.answer_key.required_article_ids[0]);
      expect(task.inbox.length).toBeGreaterThanOrEqual(5);
      expect(task.inbox.some((t) => t.status === 'resolved')).toBe(true);
    }
  });

  it('derives the key from the plan type: annual refunds to the card, monthly credits the account', () => {
    const seen = new Set<string>();
    for (const seed of SEEDS) {
      const task = generated(seed);
      const key = task.answer_key;
      const annual = /^Plan: \w+ Annual/.test(target(task).contract_notes[0]);
      seen.add(annual ? 'annual' : 'monthly');
      expect(key.priority).toBe(annual ? 'high' : 'normal');
      expect(key.team).toBe('billing');
      expect(key.resolution.code).toBe(annual ? 'refund_issued' : 'credit_issued');
      const article = task.knowledge_base.find((a) => a.id === key.required_article_ids[0])!;
      expect(article.body).toContain(`Set the priority to ${key.priority}`);
      expect(article.body).toContain(`resolve the ticket as ${key.resolution.code}`);
      // The amount is the later of the two invoices for the same period, not the add-on and not both.
      const duplicate = target(task).recent_events.filter((e) => e.kind === 'charge' && e.detail.includes('billing period'));
      expect(duplicate).toHaveLength(2);
      expect(duplicate[1].detail).toContain(`$${key.resolution.amount!.toFixed(2).replace(/\B(?=(\d{3})+\.)/g, ',')}`);
      const [amount, window] = key.reply_claims!;
      expect(amount.kind === 'money' && amount.amount).toBe(key.resolution.amount);
      if (window.kind !== 'duration') throw new Error('the second claim is the window');
      const told = article.body.split('What to tell the customer:')[1];
      expect(told).toContain(window.min === window.max ? `${window.min} business days` : `${window.min}-${window.max} business days`);
    }
    expect([...seen].sort()).toEqual(['annual', 'monthly']);
  });

  it('penalises telling the customer that both charges were refunded or credited', () => {
    for (const seed of SEEDS.slice(0, 20)) {
      const task = generated(seed);
      const key = task.answer_key;
      const both = (key.resolution.amount! * 2).toFixed(2);
      const verb = key.resolution.code === 'refund_issued' ? 'refunded both charges, $' : 'credited both charges to your account, $';
      const env = new AgentEnvironment(task, seed, 'dense');
      env.step({ type: 'open_ticket', ticket_id: key.target_ticket_id });
      env.step({ type: 'send_reply', message: `Hi there, we have ${verb}${both} in total, so you are all set.` });
      expect(grade(task, env.state).penalties.map((p) => p.id)).toContain(key.forbidden![0].id);
    }
  });


  describe('generator version 3: the case kinds', () => {
    const g3 = new Map<number, Task>();
    const drawn = (seed: number): Task => g3.get(seed) ?? g3.set(seed, billingDuplicateChargeV3.generate(seed)).get(seed)!;
    const SEEDS3 = Array.from({ length: 500 }, (_, i) => i);
    const kindOf = (seed: number) => drawCase(seed).case.kind;

    it('serves the canonical instance exactly as version 2 does, and leaves versions 1 and 2 drawing what they drew', () => {
      expect(billingDuplicateChargeV3.canonical).toEqual(billingDuplicateChargeV2.canonical);
      expect(billingDuplicateChargeV2.generate(3).answer_key.reply_claims!.map((c) => c.id)).toEqual(billingDuplicateCharge.generate(3).answer_key.reply_claims!.map((c) => c.id));
    });

    it('draws every kind, none on more than 30% of seeds or fewer than 5%', () => {
      const counts = new Map<string, number>();
      for (const seed of SEEDS3) counts.set(kindOf(seed), (counts.get(kindOf(seed)) ?? 0) + 1);
      expect([...counts.keys()].sort()).toEqual([...CASE_KINDS].sort());
      for (const [kind, n] of counts) expect([kind, n / SEEDS3.length >= 0.05 && n / SEEDS3.length <= 0.3]).toEqual([kind, true]);
    });

    it('decides priority, team, resolution and amount differently across the kinds', () => {
      const decisions = new Set(SEEDS3.map((seed) => {
        const key = drawn(seed).answer_key;
        return `${key.priority}|${key.team}|${key.resolution.code}`;
      }));
      expect(decisions.size).toBeGreaterThanOrEqual(10);
      const amounts = new Set(SEEDS3.map((seed) => drawn(seed).answer_key.resolution.amount).filter((a) => a !== undefined));
      expect(amounts.size).toBeGreaterThan(300);
    });

    it("words the customer's ticket apart from the kind: no subject or body word tells a kind", () => {
      // For every word on at least 10% of 1000 tickets, no kind is clearly more common among the tickets with it than overall.
      const byWord = new Map<string, Map<string, number>>();
      const overall = new Map<string, number>();
      const SEEDS1000 = Array.from({ length: 1000 }, (_, i) => i);
      for (const seed of SEEDS1000) {
        const ticket = target(billingDuplicateChargeV3.generate(seed));
        const kind = kindOf(seed);
        overall.set(kind, (overall.get(kind) ?? 0) + 1);
        for (const w of new Set(`${ticket.subject} ${ticket.body}`.toLowerCase().match(/[a-z]+/g))) {
          const m = byWord.get(w) ?? byWord.set(w, new Map()).get(w)!;
          m.set(kind, (m.get(kind) ?? 0) + 1);
        }
      }
      const telling: string[] = [];
      for (const [word, kinds] of byWord) {
        const n = [...kinds.values()].reduce((a, b) => a + b, 0);
        if (n < 0.1 * SEEDS1000.length || n === SEEDS1000.length) continue;
        for (const [kind, k] of kinds) {
          // Over-represented by half again, and not by chance (more than three standard deviations over the count expected).
          const expected = (n * overall.get(kind)!) / SEEDS1000.length;
          if (k > 1.5 * expected && (k - expected) / Math.sqrt(expected) > 3) telling.push(`${word} -> ${kind} (${k} of ${n})`);
        }
      }
      expect(telling).toEqual([]);
    });

    it('states the plan type and the same other facts in the contract notes of every kind', () => {
      const shapes = new Set<string>();
      for (const seed of SEEDS3) {
        const notes = target(drawn(seed)).contract_notes;
        expect(notes[0]).toMatch(/^Plan: \w+ (Annual|Monthly), /);
        shapes.add(notes.map((n) => n.replace(/\d[\d,.:-]*/g, '#').replace(/^Plan: .*/, 'Plan').replace(/^Payment method on file: .*? ending/, 'Card ending').replace(/(ending|bought|owner:) .*/, '$1')).join(' / '));
      }
      expect(shapes.size).toBe(1);
    });

    it("takes its deciding figures from this instance's knowledge base", () => {
      const windows = new Set<string>();
      for (const seed of SEEDS3.slice(0, 200)) {
        const task = drawn(seed);
        const { case: c } = drawCase(seed);
        const triage = task.knowledge_base.find((a) => a.id === c.articleIds.triage)!;
        windows.add(/within (\d+) days of the duplicate charge/.exec(triage.body)![1]);
        expect(triage.body).toContain(`$${c.policy.priorityThreshold.toLocaleString('en-US')}.00`);
        if (c.kind === 'refund_approval') expect(task.answer_key.resolution.amount).toBe(c.policy.approvalLimit);
        if (c.kind === 'monthly_credit' || c.kind === 'late_credit') expect(Math.round(task.answer_key.resolution.amount! * 100)).toBe(c.retries * c.plan.priceCents - (c.addOnOverdue ? drawCase(seed).facts.target.addOn.cents : 0) + (c.kind === 'late_credit' ? c.policy.lateServiceCredit : c.policy.serviceCredit) * 100);
      }
      expect(windows.size).toBe(4);
      // The same age of case is inside the refund window on one instance and past it on another.
      const ages = (kind: string) => new Set(SEEDS3.map((seed) => drawCase(seed).case).filter((c) => c.kind === kind).map((c) => c.ageDays));
      const late = ages('late_credit');
      expect([...ages('card_refund')].some((age) => late.has(age))).toBe(true);
    });

    it('penalises telling the customer every charge was refunded or credited, and a voided retry refunded', () => {
      let checked = 0;
      for (const seed of SEEDS3.slice(0, 60)) {
        const task = drawn(seed);
        const forbidden = task.answer_key.forbidden?.find((f) => f.kind === 'money');
        if (!forbidden || forbidden.kind !== 'money') continue;
        const verb = forbidden.about?.includes('credit') ? 'credited' : 'refunded';
        const env = new AgentEnvironment(task, seed, 'dense');
        env.step({ type: 'open_ticket', ticket_id: task.answer_key.target_ticket_id });
        env.step({ type: 'send_reply', message: `Hi there, we have ${verb} $${forbidden.amount.toFixed(2)} to you, so you are all set.` });
        expect([seed, grade(task, env.state).penalties.map((p) => p.id)]).toEqual([seed, expect.arrayContaining([forbidden.id])]);
        checked++;
      }
      expect(checked).toBeGreaterThan(40);
    });

    it("writes the reference solver's replies in several styles", () => {
      const openings = new Set<string>();
      for (const seed of SEEDS3.slice(0, 30)) {
        const env = new AgentEnvironment(drawn(seed), seed, 'dense');
        solver.solve(env);
        expect(env.state.score_milli).toBe(1000);
        openings.add(env.state.replies[0].message.split(/\s/)[0]);
      }
      expect(openings.size).toBe(3);
    });
  });
});
