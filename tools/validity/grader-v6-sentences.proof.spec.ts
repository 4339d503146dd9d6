import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 6's fixes (issue 23, what the second exam set on drawn instances showed version 5 misread: mostly
 * replies on the new case kinds of billing g3 and logistics g4), each shown on a family of sentences written for this
 * spec (not taken from the exam sets), on drawn instances. Most families are also judged by version 5, where they fail.
 */

type Claim = { id: string; amount: number; min: number; max: number; date: string; value: string; objects: string[]; qualifiers?: string[]; near_misses?: { amount?: number; date?: string }[] };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 5 | 6) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 5 | 6) => gradeReply(task, reply, version).penalties;
const longDay = (iso: string) => new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const weekday = (iso: string) => new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
/** The first seed (from 1) of a family version whose instance `fits`. */
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;

describe('the parts of an amount are no rival amounts (billing g3, an account credit)', () => {
  // A credit made of the duplicate (one of the claim's near misses) and a service credit.
  const seed = seedWhere('billing_duplicate_charge', 3, (t) => {
    const c = claims(t).find((x) => x.id === 'credit_amount');
    return c !== undefined && (c.near_misses ?? []).some((n) => n.amount !== undefined && n.amount < c.amount);
  });
  const task = drawn('billing_duplicate_charge', 3, seed);
  const credit = claim(task, 'credit_amount');
  const duplicate = Math.max(...(credit.near_misses ?? []).map((n) => n.amount ?? 0).filter((a) => a < credit.amount));
  const rest = Math.round((credit.amount - duplicate) * 100) / 100;
  const said = [
    `We've applied an account credit of ${usd(credit.amount)}: the ${usd(duplicate)} duplicate plus a ${usd(rest)} service credit.`,
    `Your account has been credited ${usd(credit.amount)} (${usd(duplicate)} + ${usd(rest)} for the trouble).`,
    `We've credited ${usd(credit.amount)} to your account. That's the ${usd(duplicate)} you paid twice plus ${usd(rest)} from us.`,
  ];
  it.each(said)('credits the amount in: %s', (reply) => {
    expect(covered(task, reply, 6)).toContain('credit_amount');
  });
  it('version 5 read the parts as rivals', () => {
    expect(said.filter((reply) => !covered(task, reply, 5).includes('credit_amount')).length).toBeGreaterThanOrEqual(2);
  });
  it('parts that do not add up are still rivals', () => {
    expect(covered(task, `We've applied an account credit of ${usd(credit.amount)}: the ${usd(duplicate)} duplicate plus a ${usd(rest + 7)} service credit.`, 6)).not.toContain('credit_amount');
  });
});

describe('a further refund denied is not this one denied; a fresh refund is another (billing g3, already refunded)', () => {
  const task = drawn('billing_duplicate_charge', 3, seedWhere('billing_duplicate_charge', 3, (t) => t.answer_key.team === 'general_support' && claims(t).some((c) => c.id === 'refund_amount')));
  const amount = usd(claim(task, 'refund_amount').amount);
  const { min, max } = claim(task, 'settlement_window');
  const told = `The duplicate ${amount} was already refunded to your card, and refunds settle within ${min}-${max} business days.`;
  const denials = ['No further refund will be issued.', "We won't refund it a second time.", 'As it has been refunded already, no second refund is due.'];
  it.each(denials)('credits both details beside: %s', (denial) => {
    expect(covered(task, `${told} ${denial}`, 6)).toEqual(['refund_amount', 'settlement_window']);
  });
  it('version 5 read most of them as denying the refund', () => {
    expect(denials.filter((denial) => covered(task, `${told} ${denial}`, 5).length < 2).length).toBeGreaterThanOrEqual(2);
  });
  it('a fresh refund of the amount tells nothing of the one made', () => {
    expect(covered(task, `We'll send a fresh refund of ${amount} to your card.`, 6)).not.toContain('refund_amount');
  });
});

describe('a window said of an approval is the approval\'s (billing g3, a refund over the limit)', () => {
  const task = drawn('billing_duplicate_charge', 3, seedWhere('billing_duplicate_charge', 3, (t) => claims(t).some((c) => c.id === 'approval_window')));
  const refund = usd(claim(task, 'refund_amount').amount);
  const settle = claim(task, 'settlement_window');
  const approve = claim(task, 'approval_window');
  const said = [
    `We've refunded ${refund} to your card now. Your account team will approve the rest within ${approve.min} business days, after which it is refunded to your card and settles within ${settle.min}-${settle.max} business days.`,
    `${refund} is refunded to your card today and settles within ${settle.min}-${settle.max} business days; the remainder needs sign-off, and the team approves it within ${approve.min} business days.`,
  ];
  it.each(said)('credits the settlement window in: %s', (reply) => {
    expect(covered(task, reply, 6)).toEqual(expect.arrayContaining(['refund_amount', 'settlement_window']));
  });
});

describe('a delivery date beside its range, the deadline and the transit time; a weekday in brackets (logistics g4)', () => {
  const task = drawn('logistics_missing_order_vip', 4, seedWhere('logistics_missing_order_vip', 4, (t) => claims(t).some((c) => c.id === 'replacement_courier' && c.value === 'standard_ground')));
  const date = claim(task, 'delivery_date').date;
  const earlier = (claim(task, 'delivery_date').near_misses ?? []).map((n) => n.date).find((d): d is string => d !== undefined && d < date)!;
  const opening = 'We have dispatched a replacement by standard ground today, at no charge.';
  const said = [
    `It will be delivered by ${longDay(date)} at the latest, possibly from ${longDay(earlier)}.`,
    `They'll arrive between ${longDay(earlier)} and ${longDay(date)}, and by ${longDay(date)} at the latest.`,
    `Delivered by: ${date} (${weekday(date)})`,
  ];
  it.each(said)('credits the delivery date in: %s', (sentence) => {
    expect(covered(task, `Hi,\n\n${opening}\n${sentence}\n\nThanks`, 6)).toContain('delivery_date');
  });
  it('version 5 missed most of them', () => {
    expect(said.filter((sentence) => !covered(task, `Hi,\n\n${opening}\n${sentence}\n\nThanks`, 5).includes('delivery_date')).length).toBeGreaterThanOrEqual(2);
  });
  it('the courier given as the means says how the replacement goes, without naming it', () => {
    expect(covered(task, 'Hi, we have sent a fresh set of the items on standard ground today.', 6)).toContain('replacement_courier');
    expect(covered(task, 'Hi, we have sent a fresh set of the items on standard ground today.', 5)).not.toContain('replacement_courier');
  });
  it('a title-like line names no courier', () => {
    expect(covered(task, 'Replacing a lost order by standard ground.', 6)).not.toContain('replacement_courier');
  });
});

describe('a courier denied after an aside is not promised (logistics g4, no courier in time)', () => {
  const task = drawn('logistics_missing_order_vip', 4, seedWhere('logistics_missing_order_vip', 4, (t) => t.answer_key.resolution.code === 'refund_issued'));
  const amount = usd(claim(task, 'refund_amount').amount);
  const replies = [
    `Our fastest service, the overnight priority courier, could not deliver before your date, so we've cancelled the order and refunded ${amount} to your card.`,
    `I checked every option (even overnight priority, booked now, wouldn't land in time), so we've refunded ${amount} to your card.`,
  ];
  it.each(replies)('is not penalised: %s', (reply) => {
    expect(penalties(task, reply, 6)).toEqual([]);
  });
  it('version 5 penalised at least one', () => {
    expect(replies.filter((reply) => penalties(task, reply, 5).includes('promises_overnight_replacement')).length).toBeGreaterThanOrEqual(1);
  });
  it('still penalises the promise', () => {
    expect(penalties(task, "We've dispatched a replacement by overnight priority courier.", 6)).toContain('promises_overnight_replacement');
  });
});

describe('keys named in a list, a window in words, an inverted condition (security g3)', () => {
  const takeover = drawn('security_compromised_account', 3, seedWhere('security_compromised_account', 3, (t) => claims(t).some((c) => c.id === 'named_keys_revoked' && c.objects.length >= 1) && claims(t).some((c) => c.id === 'api_keys_revoked' && (c.qualifiers ?? []).includes('72 hours'))));
  const names = claim(takeover, 'named_keys_revoked').objects;
  it('a window written in words is the window', () => {
    expect(covered(takeover, `Every API key created within the last seventy-two hours has been revoked, namely ${names.join(' and ')}.`, 6)).toEqual(expect.arrayContaining(['api_keys_revoked', 'named_keys_revoked']));
    expect(covered(takeover, `Every API key created within the last seventy-two hours has been revoked, namely ${names.join(' and ')}.`, 5)).not.toContain('api_keys_revoked');
  });
  it('a list of names with one the claim does not name is the wrong list', () => {
    const reply = `We've revoked the API keys created in the last 72 hours, ${names.join(', ')} and grafana-read-9.`;
    expect(covered(takeover, reply, 6)).not.toContain('named_keys_revoked');
    expect(covered(takeover, reply, 5)).toContain('named_keys_revoked');
  });
  it('a restatement after a semicolon names the key', () => {
    expect(covered(takeover, `Every API key created in the last 72 hours has been revoked; this concerns ${names.join(' and ')}.`, 6)).toContain('named_keys_revoked');
  });
  const reset = drawn('security_compromised_account', 3, seedWhere('security_compromised_account', 3, (t) => claims(t).some((c) => c.id === 'spam_folder')));
  it.each([
    'We recommend checking your spam folder should it not appear in your inbox.',
    'Please look in your junk folder should the email not arrive.',
  ])('an inverted condition after the advice keeps it: %s', (sentence) => {
    expect(covered(reset, `We've sent you a new reset link. ${sentence}`, 6)).toContain('spam_folder');
  });
  it.each(['I believe these usually last around an hour.', 'Would it help if I explained where you can check your spam folder?'])('a belief or an offer tells nothing: %s', (sentence) => {
    const told = covered(reset, `A new reset link is on its way. ${sentence}`, 6);
    expect(told).not.toContain('link_expiry');
    expect(told).not.toContain('spam_folder');
  });
});
