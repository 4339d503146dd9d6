import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 12's fixes (issue 23, what the eighth exam set on drawn instances showed version 11 misread), each
 * shown on a family of sentences written for this spec (not taken from the exam sets), on drawn instances, judged by
 * version 11 beside it, with a case the fix must leave alone.
 */

type Claim = { id: string; amount: number; min: number; max: number; date?: string; objects?: string[] };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const forbidden = (task: Task, id: string) => (task.answer_key.forbidden ?? []).find((f) => f.id === id) as unknown as { amount: number } | undefined;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 11 | 12) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 11 | 12) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;
const has = (...ids: string[]) => (t: Task) => ids.every((id) => claims(t).some((c) => c.id === id));
/** How many replies version 11 reads otherwise than version 12. */
const misreadBy11 = (replies: string[], read: (reply: string, version: 11 | 12) => boolean) => replies.filter((r) => read(r, 11) !== read(r, 12)).length;
const dayMonth = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const dayBefore = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';
const LOGISTICS = 'logistics_missing_order_vip';

describe('what is owed, refunded again, or a charge, is no refund (billing g3)', () => {
  const over = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount', 'approval_window')(t) && forbidden(t, 'refunds_over_limit') !== undefined));
  const now = claim(over, 'refund_amount').amount;
  const whole = forbidden(over, 'refunds_over_limit')!.amount;
  const owed = [
    `The gateway retried, so you're owed ${usd(whole)} back. I've refunded ${usd(now)} to your card today; card refunds settle within ${claim(over, 'settlement_window').min}-${claim(over, 'settlement_window').max} business days.`,
    `Two extra charges were taken - ${usd(whole)} in total to be returned. I have refunded ${usd(now)} to your card today.`,
  ];
  it.each(owed)('what is owed is not refunded over the limit: %s', (reply) => {
    expect(penalties(over, reply, 12)).not.toContain('refunds_over_limit');
    expect(covered(over, reply, 12)).toContain('refund_amount');
  });
  it('version 11 penalised them', () => {
    expect(owed.filter((r) => penalties(over, r, 11).includes('refunds_over_limit')).length).toBe(2);
  });
  it('the whole said refunded is still over the limit', () => {
    expect(penalties(over, `We've refunded ${usd(whole)} back to your card today.`, 12)).toContain('refunds_over_limit');
  });
  const charge = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount', 'approval_window')(t)));
  const nearMiss = (claim(charge, 'refund_amount') as unknown as { near_misses: { amount?: number }[] }).near_misses.find((m) => m.amount !== undefined && m.amount !== forbidden(charge, 'refunds_over_limit')?.amount)!.amount!;
  const chargeThenRefund = `Two extra charges of ${usd(nearMiss)} were taken - the rest goes to approval. I have refunded ${usd(claim(charge, 'refund_amount').amount)} to your card today.`;
  it('a figure its own clause calls a charge is no rival refund', () => {
    expect(covered(charge, chargeThenRefund, 12)).toContain('refund_amount');
  });
  it('the same figure said refunded still rivals', () => {
    expect(covered(charge, `We refunded the duplicate charge of ${usd(nearMiss)} and ${usd(claim(charge, 'refund_amount').amount)} today.`, 12)).not.toContain('refund_amount');
  });
  const refund = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount')(t) && !has('approval_window')(t)));
  const amount = usd(claim(refund, 'refund_amount').amount);
  const again = [`I've refunded the duplicate ${amount} to your card again today, just to be safe.`, `We refunded ${amount} a second time this morning.`];
  it.each(again)('a refund done over is not the one the key tells: %s', (reply) => {
    expect(covered(refund, reply, 12)).not.toContain('refund_amount');
  });
  it('version 11 credited them', () => {
    expect(misreadBy11(again, (r, v) => covered(refund, r, v).includes('refund_amount'))).toBe(2);
  });
  it('a plain refund still counts', () => {
    expect(covered(refund, `I've refunded the duplicate ${amount} to your card today.`, 12)).toContain('refund_amount');
  });
});

describe('an answer of no, a value line after a pending one (billing g3)', () => {
  const voided = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => forbidden(t, 'refunds_voided_retry') !== undefined));
  const price = usd(forbidden(voided, 'refunds_voided_retry')!.amount);
  const answer = `Hello,\n- Were you charged twice? No. The second ${price} was a pending hold that was never taken.\n- Do you need a refund? No, since the money never left your account; the first ${price} is your normal renewal.`;
  it('"Do you need a refund? No, …; the first $X is your renewal" refunds nothing', () => {
    expect(penalties(voided, answer, 12)).not.toContain('refunds_voided_retry');
    expect(penalties(voided, answer, 11)).toContain('refunds_voided_retry');
  });
  it('"Do you need a refund? Yes, we refunded $X" still does', () => {
    expect(penalties(voided, `Do you need a refund? Yes - we have refunded ${price} to your card.`, 12)).toContain('refunds_voided_retry');
  });
  const credit = drawn(BILLING, 3, seedWhere(BILLING, 3, has('credit_amount')));
  const creditAmount = usd(claim(credit, 'credit_amount').amount);
  it('a value alone on the line after "status: pending" is no credit', () => {
    expect(covered(credit, `Hi Sam,\nCredit status: pending\n${creditAmount}`, 12)).not.toContain('credit_amount');
    expect(covered(credit, `Hi Sam,\nCredit status: pending\n${creditAmount}`, 11)).toContain('credit_amount');
    expect(covered(credit, `Hi Sam,\nCredit issued today:\n${creditAmount}`, 12)).toContain('credit_amount');
  });
});

describe('a new device, a short window, a key named after a dash, today and yesterday (security g6)', () => {
  const alert = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('sign_in_date')));
  const date = dayMonth(claim(alert, 'sign_in_date').date!);
  const dated = (task: Task, reply: string, v: 11 | 12) => covered(task, reply, v).includes('sign_in_date');
  it('"a device not previously seen on your account, at 01:02 UTC on <date>" dates the sign-in', () => {
    const reply = `The notification was triggered by a sign-in from a device not previously seen on your account, at 01:02 UTC on ${date}.`;
    expect(dated(alert, reply, 12)).toBe(true);
    expect(dated(alert, reply, 11)).toBe(false);
    expect(dated(alert, `The device was previously seen on your account, on ${date}.`, 12)).toBe(false);
  });
  const today = drawn(SECURITY, 6, seedWhere(SECURITY, 6, (t) => has('sign_in_date')(t) && claim(t, 'sign_in_date').date === (t.clock ?? '').slice(0, 10)));
  const yesterday = drawn(SECURITY, 6, seedWhere(SECURITY, 6, (t) => has('sign_in_date')(t) && claim(t, 'sign_in_date').date === dayBefore((t.clock ?? '').slice(0, 10))));
  it('"this morning" and "yesterday" are the ticket\'s day and the one before', () => {
    expect(dated(today, 'Someone signed in to your account from a new device at 07:28 UTC this morning.', 12)).toBe(true);
    expect(dated(yesterday, 'Someone signed in to your account from a new device yesterday evening, at 19:35 UTC.', 12)).toBe(true);
    expect(dated(today, 'Someone signed in to your account from a new device at 07:28 UTC this morning.', 11)).toBe(false);
    expect(dated(today, 'Someone signed in to your account from a new device yesterday evening.', 12)).toBe(false);
  });
  const link = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('reset_link_sent', 'link_expiry')));
  const minutes = claim(link, 'link_expiry').min;
  it('"It\'s a short one - N minutes before it expires": "one - N" is no range', () => {
    const reply = `I've sent a new reset link to your email on file. It's a short one - ${minutes} minutes before it expires - so use it soon.`;
    expect(covered(link, reply, 12)).toContain('link_expiry');
    expect(covered(link, reply, 11)).not.toContain('link_expiry');
    expect(covered(link, `I've sent a new reset link to your email on file. It expires in 1 - ${minutes} minutes.`, 12)).not.toContain('link_expiry');
  });
  const keys = drawn(SECURITY, 6, seedWhere(SECURITY, 6, (t) => has('named_keys_revoked')(t) && claim(t, 'named_keys_revoked').objects!.length === 1));
  const key = claim(keys, 'named_keys_revoked').objects![0];
  it('"revoked all keys created … - in your case that\'s just <key> - so…" names the key revoked', () => {
    const reply = `We've also revoked all API keys created in the past 24 hours - in your case that's just ${key} - so it can no longer be used.`;
    expect(covered(keys, reply, 12)).toContain('named_keys_revoked');
    expect(covered(keys, reply, 11)).not.toContain('named_keys_revoked');
    expect(covered(keys, `We've revoked nothing yet - in your case that's just ${key} - and will decide tomorrow.`, 12)).not.toContain('named_keys_revoked');
  });
});

describe('doubts, aims, acts of an earlier occasion, one place said twice (security g6)', () => {
  const alert = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('sign_out_unrecognised')));
  const signOut = (reply: string, v: 11 | 12) => covered(alert, reply, v).includes('sign_out_unrecognised');
  const told = [
    'You might find some session info in your settings, and there could be an option to sign sessions out, though I\'m not certain.',
    "I'm reviewing the event log in order to tell you when the sign-in happened, and so that you can find your sessions and sign out any you don't know.",
  ];
  it.each(told)('advises nothing: %s', (reply) => {
    expect(signOut(reply, 12)).toBe(false);
  });
  it('version 11 credited them', () => {
    expect(misreadBy11(told, signOut)).toBe(2);
  });
  it('plain advice still counts', () => {
    expect(signOut("Your sessions are listed under Settings > Security, so that you can sign out any you don't recognise.", 12)).toBe(true);
  });
  const link = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('reset_link_sent')));
  const sent = (reply: string, v: 11 | 12) => covered(link, reply, v).includes('reset_link_sent');
  const earlier = ['A reset link was already sent to you last week on your earlier ticket.', 'We sent you a reset link yesterday.'];
  it.each(earlier)('an act of an earlier occasion is not this one: %s', (reply) => {
    expect(sent(reply, 12)).toBe(false);
  });
  it('version 11 credited them', () => {
    expect(misreadBy11(earlier, sent)).toBe(2);
  });
  it('a link sent now still counts', () => {
    expect(sent("I've just sent a new reset link to your email on file.", 12)).toBe(true);
  });
  const spam = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('spam_folder')));
  const checked = (reply: string, v: 11 | 12) => covered(spam, reply, v).includes('spam_folder');
  it('"please check Spam/Junk" is one place', () => {
    expect(checked("Reset emails sometimes get filtered - please check Spam/Junk if it isn't there.", 12)).toBe(true);
    expect(checked("Reset emails sometimes get filtered - please check Spam/Junk if it isn't there.", 11)).toBe(false);
    expect(checked("Please check Spam/Junk or Promotions if it isn't there.", 12)).toBe(false);
  });
});

describe("what another event would do, an outcome denied after the event is said (security g6)", () => {
  const locked = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('lock_duration')));
  const hours = claim(locked, 'lock_duration').min;
  const lock = `Your account unlocks automatically ${hours} hours after the last failed attempt.`;
  it('"another failed attempt would push the unlock time back" doubts nothing told', () => {
    const reply = `${lock} If anyone on your team is trying your login, ask them to hold off, since another failed attempt would push the unlock time back.`;
    expect(covered(locked, reply, 12)).toContain('lock_duration');
    expect(covered(locked, reply, 11)).not.toContain('lock_duration');
    expect(covered(locked, `${lock} I think it would probably unlock sooner, though.`, 12)).not.toContain('lock_duration');
  });
  const attempts = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('attempts_date')));
  const when = dayMonth(claim(attempts, 'attempts_date').date!);
  it('"- Date: … / - Result: all 7 were blocked - …, no sign-in" keeps the date', () => {
    const reply = `Hi, here's what happened:\n- Date: ${when}, late evening\n- Source: one IP address, 7 attempts\n- Result: all 7 were blocked - wrong password each time, no sign-in`;
    expect(covered(attempts, reply, 12)).toContain('attempts_date');
    expect(covered(attempts, reply, 11)).not.toContain('attempts_date');
    expect(covered(attempts, `Hi, there were no failed sign-in attempts on ${when}.`, 12)).not.toContain('attempts_date');
  });
});

describe('days that are not the delivery, and waits and aims (logistics g4)', () => {
  const replacement = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, has('replacement_courier', 'delivery_date')));
  const iso = claim(replacement, 'delivery_date').date!;
  const day = dayMonth(iso);
  const fullNextDay = dayMonth(new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
  const nextDay = fullNextDay.split(' ')[0];
  const weekday = day.split(' ')[0];
  const dated = (reply: string, v: 11 | 12) => covered(replacement, reply, v).includes('delivery_date');
  const said = `The replacement has been dispatched and will be delivered on ${day}.`;
  const beside = [
    `${said} If for any reason nothing has turned up by ${weekday}, ring us straight away and we'll chase it with you.`,
    `${said} If ${weekday} comes and goes without a delivery, give us a call first thing ${nextDay} and we'll sort it.`,
    `${said} If you'd rather have them delivered straight to the venue, let me know today.`,
  ];
  it.each(beside)('keeps the delivery date in: %s', (reply) => {
    expect(dated(reply, 12)).toBe(true);
  });
  it('version 11 missed at least two', () => {
    expect(misreadBy11(beside, dated)).toBeGreaterThanOrEqual(2);
  });
  it('a rival day said of the delivery still conflicts', () => {
    expect(dated(`${said} Or it is delivered on ${fullNextDay}, whichever comes first.`, 12)).toBe(false);
  });
  it('"They expect to deliver it by <date>" is their expectation, not ours', () => {
    expect(dated(`They expect to deliver it by ${day}.`, 12)).toBe(false);
    expect(dated(`They expect to deliver it by ${day}.`, 11)).toBe(true);
    expect(dated(`We expect the replacement to be delivered on ${day}.`, 12)).toBe(dated(`We expect the replacement to be delivered on ${day}.`, 11));
  });
  const refund = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, has('refund_amount')));
  const amount = usd(claim(refund, 'refund_amount').amount);
  it('"Hi, once … returned to our warehouse and checked in, we\'ll be able to refund $X" waits', () => {
    const reply = `Hi Alex, once the original packs have been returned to our warehouse and checked in, we'll be able to refund ${amount} to your card.`;
    expect(covered(refund, reply, 12)).not.toContain('refund_amount');
    expect(covered(refund, reply, 11)).toContain('refund_amount');
  });
  const credit = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, has('shipping_credit')));
  const creditAmount = usd(claim(credit, 'shipping_credit').amount);
  it('", and to cover a $X shipping credit we need sign-off" is an aim', () => {
    const reply = `Hi, we would need to book express, and to cover a ${creditAmount} shipping credit we need a manager's sign-off, which I've requested.`;
    expect(covered(credit, reply, 12)).not.toContain('shipping_credit');
    expect(covered(credit, reply, 11)).toContain('shipping_credit');
  });
  const trace = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => (t.answer_key.forbidden ?? []).some((f) => f.id === 'promises_overnight_replacement')));
  it('"Any replacement booked now - even by overnight priority courier - would only arrive after…" promises none', () => {
    const reply = 'Any replacement booked now - even by overnight priority courier - would only be delivered tomorrow, after your deadline.';
    expect(penalties(trace, reply, 12)).not.toContain('promises_overnight_replacement');
    expect(penalties(trace, reply, 11)).toContain('promises_overnight_replacement');
    expect(penalties(trace, 'We are sending a replacement - by overnight priority courier - today.', 12)).toContain('promises_overnight_replacement');
  });
});
