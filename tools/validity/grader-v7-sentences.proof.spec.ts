import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 7's fixes (issue 23, what the third exam set on drawn instances showed version 6 misread: mostly
 * replies on security g4's new kinds), each shown on a family of sentences written for this spec (not taken from the
 * exam sets), on drawn instances, and judged by version 6, where most fail.
 */

type Claim = { id: string; amount: number; min: number; max: number; near_misses?: { amount?: number }[] };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 6 | 7) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 6 | 7) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;

describe('"attempt" is a noun, and "both" stands for the attempts (security g4, blocked attempts)', () => {
  const task = drawn('security_compromised_account', 4, seedWhere('security_compromised_account', 4, (t) => claims(t).some((c) => c.id === 'attempts_blocked')));
  const said = [
    'We saw two failed sign-in attempts from abroad today. Both were blocked at the password, and nobody got in.',
    'Two sign-in attempts from abroad failed today. Result: every attempt was blocked at the password.',
    'There were two sign-in attempts from abroad today; both were blocked.',
  ];
  it.each(said)('credits the blocking in: %s', (reply) => {
    expect(covered(task, reply, 7)).toContain('attempts_blocked');
  });
  it('version 6 missed most of them', () => {
    expect(said.filter((reply) => !covered(task, reply, 6).includes('attempts_blocked')).length).toBeGreaterThanOrEqual(2);
  });
  it('"we will attempt to block them" still doubts it', () => {
    expect(covered(task, 'There were two sign-in attempts from abroad today; we will attempt to block them.', 7)).not.toContain('attempts_blocked');
  });
});

describe('an undoing denied, or another outcome denied, denies no event (security g4)', () => {
  const lockout = drawn('security_compromised_account', 4, seedWhere('security_compromised_account', 4, (t) => claims(t).some((c) => c.id === 'lock_duration')));
  const hours = claim(lockout, 'lock_duration').min;
  const told = `Your account is locked after too many failed sign-ins, and the lock lifts ${hours} hours after the last failed attempt.`;
  const notes = ["A reset link won't lift the lock any sooner.", 'Sending a reset link will not unlock the account.'];
  it.each(notes)('credits the lock beside: %s', (note) => {
    expect(covered(lockout, `${told} ${note}`, 7)).toEqual(expect.arrayContaining(['lock_duration']));
  });
  it('version 6 read them as denying it', () => {
    expect(notes.filter((note) => !covered(lockout, `${told} ${note}`, 6).includes('lock_duration')).length).toBeGreaterThanOrEqual(1);
  });
});

describe('a part of a whole, and a breakdown in brackets (billing g3)', () => {
  const over = drawn('billing_duplicate_charge', 3, seedWhere('billing_duplicate_charge', 3, (t) => claims(t).some((c) => c.id === 'approval_window')));
  const refund = claim(over, 'refund_amount').amount;
  const whole = Math.max(...(claim(over, 'refund_amount').near_misses ?? []).map((n) => n.amount ?? 0));
  it('the whole a part is refunded from is no rival, and refunds nothing over the limit', () => {
    const reply = `${usd(refund)} of the duplicate ${usd(whole)} charge has been refunded to your card today.`;
    expect(covered(over, reply, 7)).toContain('refund_amount');
    expect(penalties(over, reply, 7)).toEqual([]);
  });
  const credit = drawn('billing_duplicate_charge', 3, seedWhere('billing_duplicate_charge', 3, (t) => {
    const c = claims(t).find((x) => x.id === 'credit_amount');
    return c !== undefined && (c.near_misses ?? []).some((n) => n.amount !== undefined && n.amount < c.amount);
  }));
  const total = claim(credit, 'credit_amount').amount;
  const part = Math.max(...(claim(credit, 'credit_amount').near_misses ?? []).map((n) => n.amount ?? 0).filter((a) => a < total));
  it('the bracketed parts beside the charge they explain add up to the credit', () => {
    const reply = `We've credited your account ${usd(total)} for the duplicate ${usd(part)} charge (${usd(part)} + ${usd(Math.round((total - part) * 100) / 100)} service credit).`;
    expect(covered(credit, reply, 7)).toContain('credit_amount');
    expect(covered(credit, reply, 6)).not.toContain('credit_amount');
  });
});

describe('a courier weighed after an aside, and a purpose "so we can" (logistics g4, too late for any courier)', () => {
  const task = drawn('logistics_missing_order_vip', 4, seedWhere('logistics_missing_order_vip', 4, (t) => t.answer_key.resolution.code === 'refund_issued'));
  const amount = usd(claim(task, 'refund_amount').amount);
  it('is not penalised: the quickest one, overnight priority, would only reach you too late', () => {
    const reply = `The quickest one, overnight priority, would only reach you after your date, so we've cancelled the order and refunded ${amount} to your card.`;
    expect(penalties(task, reply, 7)).toEqual([]);
  });
  it('credits nothing in: Hi, so we can refund the amount, please reply with the card number', () => {
    expect(covered(task, `Hi Sam, so we can refund the ${amount}, please reply with the card's full number and expiry date.`, 7)).not.toContain('refund_amount');
  });
});
