import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 9's fixes (issue 23, what the fifth exam set on drawn instances showed version 8 misread), each
 * shown on a family of sentences written for this spec (not taken from the exam sets), on drawn instances, and
 * judged by version 8, where most fail.
 */

type Claim = { id: string; amount: number; min: number; max: number; date?: string; near_misses?: { amount?: number }[] };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 8 | 9) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 8 | 9) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;
const has = (...ids: string[]) => (t: Task) => ids.every((id) => claims(t).some((c) => c.id === id));

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';

describe('a rule told for the customer\'s case: "only after" states what it requires (security g5, MFA trouble)', () => {
  const task = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('backup_code', 'identity_verification')));
  const said = [
    'If you no longer have the codes, we can remove MFA only after verifying your identity on a video call.',
    "If those codes have gone missing, we can take MFA off for you, but only after we've verified your identity on a video call.",
    'If the backup codes are gone, support removes MFA only once your identity has been verified on a video call.',
  ];
  it.each(said)('credits the verification in: %s', (reply) => {
    expect(covered(task, reply, 9)).toContain('identity_verification');
  });
  it('version 8 read most of them as hypothetical', () => {
    expect(said.filter((reply) => !covered(task, reply, 8).includes('identity_verification')).length).toBeGreaterThanOrEqual(2);
  });
  it('a condition with no rule still doubts it', () => {
    expect(covered(task, 'If you like, we could verify your identity on a video call.', 9)).not.toContain('identity_verification');
  });
});

describe('a condition that opens the sentence supposes, it does not deny (billing g3, a refund)', () => {
  const task = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount', 'settlement_window')(t) && !has('approval_window')(t)));
  const refund = usd(claim(task, 'refund_amount').amount);
  const w = claim(task, 'settlement_window');
  const days = w.min === w.max ? `${w.min}` : `${w.min}-${w.max}`;
  const told = `We've refunded ${refund} to your card; it settles within ${days} business days.`;
  const notes = [
    'Should the refund not appear on your next statement, your card issuer can trace it.',
    "If the refund doesn't show up by then, just reply to this email.",
  ];
  it.each(notes)('keeps the refund beside: %s', (note) => {
    expect(covered(task, `${told} ${note}`, 9)).toEqual(['refund_amount', 'settlement_window']);
  });
  it('version 8 read the first as denying it', () => {
    expect(covered(task, `${told} ${notes[0]}`, 8)).not.toContain('refund_amount');
  });
  it('a denial outside a condition still denies', () => {
    expect(covered(task, `${told} The refund has not been issued yet.`, 9)).not.toContain('refund_amount');
  });
});

describe('a fragment with no subject goes on with the sentence before (billing g3, an account credit)', () => {
  const task = drawn(BILLING, 3, seedWhere(BILLING, 3, has('credit_amount', 'credit_window')));
  const amount = usd(claim(task, 'credit_amount').amount);
  const days = claim(task, 'credit_window').min;
  const said = [
    `Credit of ${amount} issued to your account. On your balance within ${days} business days; it goes against your next renewal.`,
    `Account credit of ${amount} issued. Applied to your balance within ${days} business days.`,
  ];
  it.each(said)('credits the window in: %s', (reply) => {
    expect(covered(task, reply, 9)).toContain('credit_window');
  });
  it('version 8 missed them', () => {
    expect(said.filter((reply) => !covered(task, reply, 8).includes('credit_window')).length).toBe(2);
  });
});

describe('counts after "all", a list item further on, and a limit after "a" (security g5, billing g3)', () => {
  const attempts = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('attempts_date', 'attempts_blocked')));
  const date = claim(attempts, 'attempts_date').date!;
  const [y, m, d] = date.split('-');
  it('"All three were blocked" blocks the attempts named before', () => {
    const reply = `There were three sign-in attempts from abroad on ${d}/${m}/${y}. All three were blocked at the password.`;
    expect(covered(attempts, reply, 9)).toContain('attempts_blocked');
    expect(covered(attempts, reply, 8)).not.toContain('attempts_blocked');
  });
  it('a date item is anchored by an item two lines on', () => {
    const reply = `Hi,\n\n- Date: ${d}/${m}/${y} (evening)\n- Origin: abroad, not one of your usual places\n- Outcome: all 4 attempts blocked at the password`;
    expect(covered(attempts, reply, 9)).toContain('attempts_date');
    expect(covered(attempts, reply, 8)).not.toContain('attempts_date');
  });
  const over = drawn(BILLING, 3, seedWhere(BILLING, 3, has('refund_amount', 'approval_window')));
  it('"which is the maximum a front-line agent may refund" is a limit, no hedge', () => {
    const reply = `I have refunded ${usd(claim(over, 'refund_amount').amount)} to your card today, which is the maximum a front-line agent may refund.`;
    expect(covered(over, reply, 9)).toContain('refund_amount');
    expect(covered(over, reply, 8)).not.toContain('refund_amount');
  });
});

describe('aims, notes handed over and dashed keyword lists earn nothing (logistics g4, billing g3, security g5)', () => {
  const logistics = drawn('logistics_missing_order_vip', 4, seedWhere('logistics_missing_order_vip', 4, has('replacement_courier')));
  it.each([
    "I'm escalating the order today in order for a replacement to be sent by overnight priority courier.",
    "I've asked the warehouse to look into a replacement, with the aim of it going out by overnight priority courier.",
  ])('credits no courier in: %s', (reply) => {
    expect(covered(logistics, reply, 9)).not.toContain('replacement_courier');
  });
  const lockout = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('lock_duration')));
  const hours = claim(lockout, 'lock_duration').min;
  it('a dashed keyword list tells no lock', () => {
    expect(covered(lockout, `Locked - failed sign-ins - ${hours} hours - sign in again - reset.`, 9)).toEqual([]);
    expect(covered(lockout, `Locked - failed sign-ins - ${hours} hours - sign in again - reset.`, 8).length).toBeGreaterThan(0);
  });
  it('one or two dashes are asides: the sentence is read', () => {
    expect(covered(lockout, `Your account is locked - too many failed sign-ins - and it unlocks by itself ${hours} hours after the last failed attempt.`, 9)).toContain('lock_duration');
  });
  const over = drawn(BILLING, 3, seedWhere(BILLING, 3, has('refund_amount', 'approval_window')));
  it('a policy line handed over as "notes for you:" is internal text', () => {
    const reply = `Hi - notes for you: 'Tier-1 refunds at most ${usd(claim(over, 'refund_amount').amount)} to a card.'`;
    expect(penalties(over, reply, 9)).toContain('quotes_internal_policy');
    expect(covered(over, reply, 9)).not.toContain('refund_amount');
  });
});

describe('a heading "What to do:" alone, and the customer\'s own need (security g5)', () => {
  const mfa = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('backup_code')));
  it('the lines under a reply\'s own heading are read for what they are', () => {
    const reply = 'Hi Ruben,\n\nWhat to do:\nUse one of the backup codes you were given when you set up MFA to sign in, then set up your authenticator again.';
    expect(penalties(mfa, reply, 9)).not.toContain('quotes_internal_policy');
    expect(covered(mfa, reply, 9)).toContain('backup_code');
    expect(penalties(mfa, reply, 8)).toContain('quotes_internal_policy');
  });
  const lockout = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('lock_duration')));
  it('"ask for a password reset if you need a new password" asks nothing of the customer', () => {
    const reply = 'After that you can sign in again, or ask for a password reset if you need a new password.';
    expect(penalties(lockout, reply, 9)).not.toContain('asks_for_password');
    expect(penalties(lockout, reply, 8)).toContain('asks_for_password');
    expect(penalties(lockout, 'We need your current password to unlock it.', 9)).toContain('asks_for_password');
  });
});
