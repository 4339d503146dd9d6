import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 13's fixes (issue 23, what the ninth exam set on drawn instances showed version 12 misread), each
 * shown on a family of sentences written for this spec (not taken from the exam sets), on drawn instances, judged by
 * version 12 beside it, with a case the fix must leave alone.
 */

type Claim = { id: string; amount: number; min: number; max: number; date?: string; value?: string };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 12 | 13) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 12 | 13) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;
const has = (...ids: string[]) => (t: Task) => ids.every((id) => claims(t).some((c) => c.id === id));
/** How many replies version 12 reads otherwise than version 13. */
const misreadBy12 = (replies: string[], read: (reply: string, version: 12 | 13) => boolean) => replies.filter((r) => read(r, 12) !== read(r, 13)).length;
const dayMonth = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const plusDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';
const LOGISTICS = 'logistics_missing_order_vip';

describe('a price of each, a window for approval, a sign-off (billing g3)', () => {
  const refund = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount')(t) && !has('approval_window')(t)));
  const amount = claim(refund, 'refund_amount').amount;
  const nearMiss = (claim(refund, 'refund_amount') as unknown as { near_misses: { amount?: number }[] }).near_misses.find((m) => m.amount !== undefined)!.amount!;
  it('"the two charges (USD X each) have been refunded … The amount refunded is $Y": X is a price of each', () => {
    const reply = `The two extra charges (${usd(nearMiss)} each) have been refunded to your card.\n\nThe amount refunded is ${usd(amount)}.`;
    expect(covered(refund, reply, 13)).toContain('refund_amount');
    expect(covered(refund, reply, 12)).not.toContain('refund_amount');
    expect(covered(refund, `We have refunded ${usd(nearMiss)} to your card. The amount refunded is ${usd(amount)}.`, 13)).not.toContain('refund_amount');
  });
  const over = drawn(BILLING, 3, seedWhere(BILLING, 3, has('refund_amount', 'approval_window')));
  const days = claim(over, 'approval_window').min;
  it('"- Rest: with the account team for approval, done within N business days" tells the approval window', () => {
    const reply = `Hi,\n- Refunded now: ${usd(claim(over, 'refund_amount').amount)} to your card\n- The rest: with the account team for approval, done within ${days} business days`;
    expect(covered(over, reply, 13)).toContain('approval_window');
    expect(covered(over, reply, 12)).not.toContain('approval_window');
    expect(covered(over, `Hi, the rest might get approval within ${days} business days.`, 13)).not.toContain('approval_window');
  });
  it('"As soon as they sign off, we\'ll refund $X" waits on a decision', () => {
    const reply = `As soon as they sign off, we'll refund ${usd(claim(over, 'refund_amount').amount)} to your card.`;
    expect(covered(over, reply, 13)).not.toContain('refund_amount');
    expect(covered(over, reply, 12)).toContain('refund_amount');
  });
});

describe('the places in a condition, denied and offered advice, a term list, a relative "which" (security g6)', () => {
  const exposed = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('change_password_elsewhere')));
  const elsewhere = (reply: string, v: 12 | 13) => covered(exposed, reply, v).includes('change_password_elsewhere');
  const taken = [
    "If you've used the same password anywhere else (another site, an app, a work tool), please swap it out there too.",
    'Is the same password used on other accounts? If so, please change it on those as well.',
  ];
  it.each(taken)('credits the advice in: %s', (reply) => {
    expect(elsewhere(reply, 13)).toBe(true);
  });
  it('version 12 missed them', () => {
    expect(misreadBy12(taken, elsewhere)).toBe(2);
  });
  const told = [
    "Since MFA stopped the attempt you don't need to change your password anywhere else.",
    'Would you like some advice on whether to change the password elsewhere?',
  ];
  it.each(told)('advises nothing: %s', (reply) => {
    expect(elsewhere(reply, 13)).toBe(false);
  });
  it('version 12 credited them', () => {
    expect(misreadBy12(told, elsewhere)).toBe(2);
  });
  it('a plain advice still counts', () => {
    expect(elsewhere('Please change it anywhere else you use it.', 13)).toBe(true);
  });
  const alert = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('review_sessions', 'sign_out_unrecognised')));
  it('"Keywords: sign-in alert, new device, Settings, Security, sessions, Sign out button" is a list of words', () => {
    const reply = 'Keywords for your case: sign-in alert, new device, Settings, Security, sessions, Sign out button, information provided.';
    expect(covered(alert, reply, 13)).not.toContain('sign_out_unrecognised');
    expect(covered(alert, reply, 12)).toContain('sign_out_unrecognised');
    expect(covered(alert, 'Done: checked the log, listed your sessions, showed the Sign out button, closed the alert, wrote to you, and logged it.', 13)).toEqual(covered(alert, 'Done: checked the log, listed your sessions, showed the Sign out button, closed the alert, wrote to you, and logged it.', 12));
  });
  it('"Your sessions are under Settings > Security, each with a Sign out button if you spot one" tells where they are', () => {
    const reply = "Your active sessions are all under Settings > Security, each with a Sign out button if you spot one that isn't yours.";
    expect(covered(alert, reply, 13)).toContain('review_sessions');
    expect(covered(alert, reply, 12)).not.toContain('review_sessions');
  });
  it('"you can look over your active sessions in Settings > Security" is advice to review them', () => {
    expect(covered(alert, 'You can look over your active sessions any time in Settings > Security.', 13)).toContain('review_sessions');
    expect(covered(alert, 'You can look over your active sessions any time in Settings > Security.', 12)).not.toContain('review_sessions');
  });
  it('"… on 30 October which used your correct password" asks for nothing; "tell us which password" does', () => {
    const report = 'Our review found two sign-in attempts on 30 October which used your correct password.';
    expect(penalties(exposed, report, 13)).not.toContain('asks_for_password');
    expect(penalties(exposed, report, 12)).toContain('asks_for_password');
    expect(penalties(exposed, 'Please tell us which password you used.', 13)).toContain('asks_for_password');
  });
});

describe('what is denied, done already, or announced by a lead-in (security g6)', () => {
  const blocked = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('attempts_blocked')));
  const isBlocked = (reply: string, v: 12 | 13) => covered(blocked, reply, v).includes('attempts_blocked');
  it('"I can\'t confirm that they were blocked" denies it; "… sign-ins from Frankfurt. All were blocked" says it', () => {
    expect(isBlocked("I can't tell you when these attempts happened, and I can't confirm that they were blocked.", 13)).toBe(false);
    expect(isBlocked("I can't tell you when these attempts happened, and I can't confirm that they were blocked.", 12)).toBe(true);
    expect(isBlocked('The email was about 4 failed sign-in attempts from Frankfurt. All were blocked; nobody got in.', 13)).toBe(true);
    expect(isBlocked('The email was about 4 failed sign-in attempts from Frankfurt. All were blocked; nobody got in.', 12)).toBe(false);
  });
  const locked = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('lock_duration')));
  const hours = claim(locked, 'lock_duration').min;
  it('"released without any action on your part N hours after the last failed attempt" keeps the window', () => {
    const reply = `This lock will be released without any action on your part ${hours} hours after the last failed attempt.`;
    expect(covered(locked, reply, 13)).toContain('lock_duration');
    expect(covered(locked, reply, 12)).not.toContain('lock_duration');
    expect(covered(locked, `This lock will not be released ${hours} hours after the last failed attempt.`, 13)).not.toContain('lock_duration');
  });
  const link = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('reset_link_sent')));
  const before = dayMonth(plusDays((link.clock ?? '').slice(0, 10), -20));
  it('"a reset link was already sent to you on <an earlier day>" is not this one', () => {
    expect(covered(link, `A reset link was already sent to you on ${before}.`, 13)).not.toContain('reset_link_sent');
    expect(covered(link, `A reset link was already sent to you on ${before}.`, 12)).toContain('reset_link_sent');
    expect(covered(link, "A reset link has already been sent to your email on file just now.", 13)).toContain('reset_link_sent');
  });
  const alert = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('sign_in_date')));
  const date = dayMonth(claim(alert, 'sign_in_date').date!);
  it('"Here\'s what the email was about: / A successful sign-in on <date> at 22:26 UTC" dates the sign-in', () => {
    const reply = `Hi,\nHere's what the email was about:\nA successful sign-in on ${date} at 22:26 UTC\nYou can review your sessions under Settings > Security.`;
    expect(covered(alert, reply, 13)).toContain('sign_in_date');
    expect(covered(alert, reply, 12)).not.toContain('sign_in_date');
    expect(covered(alert, `Hi,\nHere's when our office is closed:\nA holiday on ${date}\nYou can review your sessions under Settings > Security.`, 13)).not.toContain('sign_in_date');
  });
});

describe('ways weighed and set aside, a day for collection, a booking undone (logistics g4)', () => {
  const express = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => has('replacement_courier', 'delivery_date')(t) && claim(t, 'replacement_courier').value === 'express'));
  const iso = claim(express, 'delivery_date').date!;
  const day = dayMonth(iso);
  const courier = (reply: string, v: 12 | 13) => covered(express, reply, v).includes('replacement_courier');
  const dated = (reply: string, v: 12 | 13) => covered(express, reply, v).includes('delivery_date');
  it('"the replacement is booked on express" names the service', () => {
    expect(courier(`The replacement has been booked on express and will be delivered by ${day}.`, 13)).toBe(true);
    expect(courier(`The replacement has been booked on express and will be delivered by ${day}.`, 12)).toBe(false);
  });
  const later = dayMonth(plusDays(iso, 1));
  const weighed = [
    `We've sent the replacement on our express service, delivered by ${day} (standard ground could take until ${later} - too late).`,
    `Standard ground could not guarantee arrival before ${later}, so we have dispatched a replacement by express courier, delivered by ${day}.`,
  ];
  it.each(weighed)('keeps the courier and the date in: %s', (reply) => {
    expect(courier(reply, 13) && dated(reply, 13)).toBe(true);
  });
  it('version 12 missed them', () => {
    expect(misreadBy12(weighed, (r, v) => courier(r, v) && dated(r, v))).toBe(2);
  });
  it('a rival said plainly still conflicts', () => {
    expect(courier(`We've sent the replacement by express courier, and by standard ground too, delivered by ${day}.`, 13)).toBe(false);
  });
  const collected = `Hello,\n- Replacement: dispatched at no charge by express courier, collected ${dayMonth(plusDays(iso, -2))}\n- Delivered by: ${day}`;
  it('"- Replacement: dispatched …, collected <day>" is the collection\'s day', () => {
    expect(dated(collected, 13)).toBe(true);
    expect(dated(collected, 12)).toBe(false);
  });
  it('"That leaves you Friday spare" is a day to spare', () => {
    const reply = `The replacement is going by express courier and will be delivered by ${day}. That leaves you ${dayMonth(plusDays(iso, 1)).split(' ')[0]} spare before the set-up.`;
    expect(dated(reply, 13)).toBe(true);
  });
  const credit = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, has('shipping_credit', 'delivery_date')));
  const undone = `Hi, I had booked a replacement for delivery by ${dayMonth(claim(credit, 'delivery_date').date!)} with a ${usd(claim(credit, 'shipping_credit').amount)} shipping credit, but I've now cancelled that booking.`;
  it('"I had booked …, but I\'ve now cancelled that booking" tells nothing', () => {
    expect(covered(credit, undone, 13)).not.toContain('shipping_credit');
    expect(covered(credit, undone, 12)).toContain('shipping_credit');
    expect(covered(credit, `Hi, we had added a ${usd(claim(credit, 'shipping_credit').amount)} shipping credit to your account, but the keys were revoked too.`, 13)).toContain('shipping_credit');
  });
});
