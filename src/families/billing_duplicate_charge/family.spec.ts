import { AgentEnvironment } from '../../../tools/validity/agents';
import { grade } from '../../engine/grader';
import type { Task } from '../kit';
import { billingDuplicateCharge } from './family';

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

});
