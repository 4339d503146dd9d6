import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 15's fixes (issue 23, what the eleventh exam set on drawn instances showed version 14 misread, and
 * what earlier exam sets still showed), each shown on a family of sentences written for this spec (not taken from
 * the exam sets), on drawn instances, judged by version 14 beside it, with a case the fix must leave alone.
 */

type Claim = { id: string; amount: number; min: number; max: number; date?: string; value?: string };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 14 | 15) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id);
const penalties = (task: Task, reply: string, version: 14 | 15) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;
const has = (...ids: string[]) => (t: Task) => ids.every((id) => claims(t).some((c) => c.id === id));
/** How many replies version 14 reads otherwise than version 15. */
const misreadBy14 = (replies: string[], read: (reply: string, version: 14 | 15) => boolean) => replies.filter((r) => read(r, 14) !== read(r, 15)).length;
const dayMonth = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const window = (c: Claim) => (c.min === c.max ? `${c.min}` : `${c.min}-${c.max}`);

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';
const LOGISTICS = 'logistics_missing_order_vip';

describe('the replacement told in a chatty voice: the service after a verb of sending, the day "with you" (logistics g4)', () => {
  const express = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => has('replacement_courier', 'delivery_date')(t) && claim(t, 'replacement_courier').value === 'express'));
  const day = dayMonth(claim(express, 'delivery_date').date!);
  const courier = (reply: string, v: 14 | 15) => covered(express, reply, v).includes('replacement_courier');
  const sent = [
    `We've sent you a fresh set instead (no charge). They're going express and will be with you by ${day}.`,
    `So we've given up on that parcel and sent a brand-new batch. It's gone out express today, and you'll have it by ${day}.`,
    `I've sent you a completely new set - free, of course - by express, and you'll have it by ${day}.`,
  ];
  it.each(sent)('names the service in: %s', (reply) => {
    expect(courier(reply, 15)).toBe(true);
  });
  it('version 14 missed all of them', () => {
    expect(misreadBy14(sent, courier)).toBe(sent.length);
  });
  it('the first parcel sent by the service is not the replacement', () => {
    expect(courier('Your original order went express, and it has not been scanned since Tuesday.', 15)).toBe(false);
  });
  const dated = (reply: string, v: 14 | 15) => covered(express, reply, v).includes('delivery_date');
  const days = [
    `It's travelling by express, picked up today and with you by ${day} at the latest.`,
    `They're going express: picked up tomorrow and on your doorstep ${day}, before midday.`,
    `The replacement goes express. Collected today, delivered tomorrow, ${day}, before 12:00.`,
  ];
  it.each(days)('credits the delivery day in: %s', (reply) => {
    expect(dated(reply, 15)).toBe(true);
  });
  it('version 14 missed all of them', () => {
    expect(misreadBy14(days, dated)).toBe(days.length);
  });
  it('the day of the pickup alone is not the delivery day', () => {
    expect(dated(`It's travelling by express and will be picked up on ${day}.`, 15)).toBe(false);
  });
});

describe('days beside the delivery day: restated, or said of the first parcel (logistics g4)', () => {
  // (Delivered two days or more after the ticket: "the next business day" counted from today is then another day.)
  const later = (t: Task) => (Date.parse(claim(t, 'delivery_date').date!) - Date.parse((t.clock ?? '').slice(0, 10))) / 86_400_000 >= 2;
  const task = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => has('replacement_courier', 'delivery_date')(t) && claim(t, 'replacement_courier').value === 'overnight' && later(t)));
  const day = dayMonth(claim(task, 'delivery_date').date!);
  const dated = (reply: string, v: 14 | 15) => covered(task, reply, v).includes('delivery_date');
  it('"collects tomorrow and delivers the next business day - <day>" is one day said twice', () => {
    const reply = `We've replaced the order on our overnight priority courier: the courier collects tomorrow and delivers the next business day - ${day}, before 12 noon.`;
    expect(dated(reply, 15)).toBe(true);
    expect(dated(reply, 14)).toBe(false);
  });
  it('"the tracking shows the parcel arriving at the hub on Tuesday evening" is the first parcel\'s day', () => {
    const reply = `The tracking shows the parcel arriving at the Peterborough hub on Tuesday evening and nothing after that. We've sent a replacement by overnight priority courier, which will be with you by ${day}.`;
    expect(dated(reply, 15)).toBe(true);
  });
  it('a second day for the replacement itself still competes', () => {
    expect(dated(`The replacement goes by overnight priority and will be with you by ${day}, or possibly on Tuesday.`, 15)).toBe(false);
  });
});

describe('what a document says, and what an agreement provides (logistics g4)', () => {
  const task = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => has('replacement_courier', 'shipping_credit')(t) && claim(t, 'replacement_courier').value === 'overnight'));
  const credit = usd(claim(task, 'shipping_credit').amount);
  it('"As provided in your agreement, a shipping credit of $X has been applied" applies it', () => {
    const reply = `As provided in your agreement, a shipping credit of ${credit} has been applied to your account.`;
    expect(covered(task, reply, 15)).toContain('shipping_credit');
    expect(covered(task, reply, 14)).not.toContain('shipping_credit');
    expect(covered(task, `Provided you confirm your address, a shipping credit of ${credit} will be applied to your account.`, 15)).not.toContain('shipping_credit');
  });
  const reported = [
    'Our courier guide adds that overnight priority delivers the next business day after collection, before 12:00.',
    'Hi Sam, our policy reads: "Replacing a lost order by overnight priority courier."',
    `Hi Sam, for reference, lost orders are replaced by overnight priority courier with a shipping credit of ${credit}.`,
  ];
  const told = (reply: string, v: 14 | 15) => covered(task, reply, v).length > 0;
  it.each(reported)('tells nothing done in: %s', (reply) => {
    expect(told(reply, 15)).toBe(false);
  });
  it('version 14 credited each', () => {
    expect(misreadBy14(reported, told)).toBe(reported.length);
  });
  it('"As our policy states, we have sent the replacement by overnight priority courier" sends it', () => {
    expect(covered(task, 'As our policy states, we have sent the replacement by overnight priority courier.', 15)).toContain('replacement_courier');
  });
  it('"we won\'t be replacing it by <service>" after "invoiced to the account" denies the replacement', () => {
    const reply = 'Hi Sam, as the order was invoiced to the account we won\'t be replacing it by overnight priority courier - we\'ll wait for the carrier instead.';
    expect(covered(task, reply, 15)).not.toContain('replacement_courier');
    expect(covered(task, reply, 14)).toContain('replacement_courier');
  });
  it('a list of keywords after a longer lead-in tells nothing', () => {
    const reply = `Keywords for your case with us: replacement, overnight priority, ${credit}, shipping credit, lost parcel, general support.`;
    expect(told(reply, 15)).toBe(false);
  });
});

describe('a credit and its parts, holds, figures beside the refund (billing g3)', () => {
  const monthly = drawn(BILLING, 3, seedWhere(BILLING, 3, has('credit_amount', 'credit_window')));
  const credit = claim(monthly, 'credit_amount').amount;
  const creditWindow = window(claim(monthly, 'credit_window'));
  it('"I\'ve added $X to your account" credits it, and "applied to your account balance within N business days" times it', () => {
    const reply = `I've added ${usd(credit)} to your account for the duplicate. It'll be applied to your account balance within ${creditWindow} business days.`;
    expect(covered(monthly, reply, 15)).toEqual(expect.arrayContaining(['credit_amount', 'credit_window']));
    expect(covered(monthly, reply, 14)).not.toContain('credit_amount');
    expect(covered(monthly, `The duplicate ${usd(credit)} was charged to your account in error.`, 15)).not.toContain('credit_amount');
  });
  it('"- What happened: the renewal ($Y) was taken 3 times / - What we\'ve done: credited USD X (USD Y x 2 + USD 20.00 service credit)" credits X', () => {
    // (A monthly instance whose credit is two duplicates and a $20.00 service credit: test seed 25006.)
    const three = drawn(BILLING, 3, 25006);
    const whole = claim(three, 'credit_amount').amount;
    const part = (whole - 20) / 2;
    const reply = `- What happened: the renewal ($${part.toFixed(2)}) was taken 3 times because of gateway retries\n- What we've done: credited USD ${whole.toFixed(2)} to your account (USD ${part.toFixed(2)} x 2 + USD 20.00 service credit)\n- When: on your account balance within ${window(claim(three, 'credit_window'))} business days`;
    expect(covered(three, reply, 15)).toEqual(expect.arrayContaining(['credit_amount', 'credit_window']));
    expect(covered(three, reply, 14)).not.toContain('credit_amount');
    // (A total the parts do not make is still another figure.)
    expect(covered(three, reply.replace(' x 2 ', ' x 3 '), 15)).not.toContain('credit_amount');
  });
  const voided = drawn(BILLING, 3, seedWhere(BILLING, 3, has('hold_release_window')));
  const holdWindow = window(claim(voided, 'hold_release_window'));
  const released = (reply: string, v: 14 | 15) => covered(voided, reply, v).includes('hold_release_window');
  const holds = [
    `- Release: your card issuer lifts these pending holds within ${holdWindow} business days.`,
    `Your bank will drop those two pending holds within ${holdWindow} business days, and then your balance is back to normal.`,
  ];
  it.each(holds)('times the release in: %s', (reply) => {
    expect(released(reply, 15)).toBe(true);
  });
  it('version 14 missed both', () => {
    expect(misreadBy14(holds, released)).toBe(holds.length);
  });
  it('a hold still pending a review is still doubted', () => {
    expect(released(`The release of the hold is pending review; it could take ${holdWindow} business days.`, 15)).toBe(false);
  });
  const refund = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount', 'settlement_window')(t) && !has('approval_window')(t)));
  const amount = usd(claim(refund, 'refund_amount').amount);
  const settle = window(claim(refund, 'settlement_window'));
  it('"$24.16 pro-rated charge for 3 added seats - expected, not refunded" denies nothing of the refund', () => {
    const reply = `We have refunded the duplicate ${amount} to your card; it settles within ${settle} business days.\n- 2026-11-17: $24.16 pro-rated charge for 3 added seats - expected, not refunded.`;
    expect(covered(refund, reply, 15)).toEqual(expect.arrayContaining(['refund_amount', 'settlement_window']));
    expect(covered(refund, reply, 14)).not.toContain('refund_amount');
    expect(covered(refund, `The duplicate ${amount} is expected, not refunded.`, 15)).not.toContain('refund_amount');
  });
  it('"rather than a card refund we\'ve applied an account credit of $X ($Y + $20 service credit)" refunds nothing', () => {
    const whole = usd(claim(refund, 'refund_amount').amount + 20);
    const reply = `Rather than a card refund we've applied an account credit of ${whole} (${amount} + a $20.00 service credit).`;
    expect(covered(refund, reply, 15)).not.toContain('refund_amount');
    expect(covered(refund, reply, 14)).toContain('refund_amount');
  });
  it('"Duplicate charges: INV-…, $X each" is a label over the case, no policy pasted', () => {
    const reply = `Duplicate charges: INV-77782 and INV-77783, ${amount} each.\nWe have refunded ${amount} to your card.`;
    expect(penalties(refund, reply, 15)).not.toContain('quotes_internal_policy');
    expect(penalties(refund, reply, 14)).toContain('quotes_internal_policy');
  });
  const split = drawn(BILLING, 3, seedWhere(BILLING, 3, has('approval_window', 'settlement_window')));
  const approval = window(claim(split, 'approval_window'));
  it('"settling within 5-7 business days" beside the approval is the settlement\'s window, not a rival', () => {
    const reply = `I've refunded part of it to your card - settling within five to seven business days - and the account team will approve the rest within ${approval} business days.`;
    expect(covered(split, reply, 15)).toContain('approval_window');
    expect(covered(split, reply, 14)).not.toContain('approval_window');
  });
});

describe('a lock said of "it", a status label, one of several, a relative clause of "it" (security g6)', () => {
  const lockout = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('account_locked', 'lock_duration')));
  const locked = (reply: string, v: 14 | 15) => covered(lockout, reply, v).includes('account_locked');
  const said = [
    'Having reviewed your account, I can confirm that it has been locked automatically after too many failed sign-ins.',
    'Having reviewed your account, we can confirm that it is currently locked.',
    '- Status: locked after too many failed sign-ins (5 wrong-password attempts from Graz today)',
    'The account did exactly what it is built to do and locked itself.',
  ];
  it.each(said)('says the account is locked in: %s', (reply) => {
    expect(locked(reply, 15)).toBe(true);
  });
  it('version 14 missed each', () => {
    expect(misreadBy14(said, locked)).toBe(said.length);
  });
  it('a status of something else is not the lock', () => {
    expect(locked('- Status: resolved', 15)).toBe(false);
  });
  const attempts = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('attempts_blocked', 'attempts_date')));
  const day = dayMonth(claim(attempts, 'attempts_date').date!);
  const blocked = (reply: string, v: 14 | 15) => covered(attempts, reply, v).includes('attempts_blocked');
  const stopped = [
    `On ${day} there were seven sign-in attempts from Hanoi. Every one was blocked at the password; nobody got in.`,
    `* Date: ${day}\n* Source: Hanoi - 8 attempts, all wrong password\n* Outcome: all blocked, none got in`,
  ];
  it.each(stopped)('credits the block in: %s', (reply) => {
    expect(blocked(reply, 15)).toBe(true);
  });
  it('version 14 missed both', () => {
    expect(misreadBy14(stopped, blocked)).toBe(stopped.length);
  });
  it('"none were blocked" still denies it', () => {
    expect(blocked(`On ${day} there were seven sign-in attempts from Hanoi, and none were blocked.`, 15)).toBe(false);
  });
  it('"had a go at signing in" dates the attempts', () => {
    const reply = `On ${day}, somebody in Hanoi had a go at signing in to your account seven times. Our checks stopped every single attempt.`;
    expect(covered(attempts, reply, 15)).toContain('attempts_date');
    expect(covered(attempts, reply, 14)).not.toContain('attempts_date');
  });
  const alert = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('sign_in_date', 'review_sessions')));
  const signInIso = claim(alert, 'sign_in_date').date!;
  const signedIn = (reply: string, v: 14 | 15) => covered(alert, reply, v).includes('sign_in_date');
  it('"(Our system also sends these alerts for … a network it hasn\'t seen before)" denies no sign-in', () => {
    const reply = `The email came from a sign-in to your account on ${dayMonth(signInIso)} at 13:17 UTC. (Our system also sends these alerts for your own sign-ins from a network it hasn't seen before.)`;
    expect(signedIn(reply, 15)).toBe(true);
    expect(signedIn(reply, 14)).toBe(false);
  });
  const lists = [`- When: ${signInIso}, 04:21 UTC\n- Where: Bristol (GB), a device we hadn't seen before`, `Hi Sam,\n\n• When/where: ${signInIso}, 21:22 UTC, Tampere\n• Since then: no changes to the account`];
  it.each(lists)('a list\'s "When" dates what the list is about: %s', (reply) => {
    expect(signedIn(reply, 15)).toBe(true);
  });
  it('version 14 missed both', () => {
    expect(misreadBy14(lists, signedIn)).toBe(lists.length);
  });
  it('a "When" that is not a label line dates nothing', () => {
    expect(signedIn(`When ${signInIso} comes, we will review the account.`, 15)).toBe(false);
  });
});

describe('advice: where it is found, promised for later, a rule with "always" (security g6)', () => {
  const alert = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('review_sessions', 'sign_out_unrecognised')));
  const reviewed = (reply: string, v: 14 | 15) => covered(alert, reply, v).includes('review_sessions');
  it('"pop into Settings > Security and you\'ll see the list of sessions" advises the review', () => {
    const reply = "If you'd like peace of mind, pop into Settings > Security and you'll see the list of sessions currently signed in.";
    expect(reviewed(reply, 15)).toBe(true);
    expect(reviewed(reply, 14)).toBe(false);
    expect(reviewed('Pop into Settings > Security and change your avatar; you will see the sessions later.', 15)).toBe(false);
  });
  const signOut = (reply: string, v: 14 | 15) => covered(alert, reply, v).includes('sign_out_unrecognised');
  it('"if you spot one you don\'t recognise (that Edinburgh one, say) you can sign it out" advises signing out', () => {
    const reply = 'You can see every active session under Settings > Security, and each one has its own Sign out button, so if you spot one you don\'t recognise (that Edinburgh one, say) you can sign it out straight away.';
    expect(signOut(reply, 15)).toBe(true);
    expect(signOut(reply, 14)).toBe(false);
  });
  it('"once you confirm it\'s you, I\'ll tell you … how to sign out sessions" advises nothing yet', () => {
    const reply = "Once you confirm it's really you, I'll tell you where the sign-in came from and how to sign out sessions.";
    expect(signOut(reply, 15)).toBe(false);
    expect(signOut(reply, 14)).toBe(true);
  });
  const mfa = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('identity_verification', 'backup_code')));
  it('"…, but we always verify it\'s really you on a video call first" tells the rule', () => {
    const reply = "If the backup codes are lost, we can take MFA off for you, but we always verify it's really you on a video call first.";
    expect(covered(mfa, reply, 15)).toContain('identity_verification');
    expect(covered(mfa, reply, 14)).not.toContain('identity_verification');
    expect(covered(mfa, 'If the backup codes are lost, we could verify it on a video call.', 15)).not.toContain('identity_verification');
  });
  const exposed = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('change_password_elsewhere', 'reset_link_sent')));
  it('"Please also change the password on any other accounts where you reuse it." is a sentence', () => {
    const reply = 'Please also change the password on any other accounts where you reuse it.';
    expect(covered(exposed, reply, 15)).toContain('change_password_elsewhere');
    expect(covered(exposed, reply, 14)).not.toContain('change_password_elsewhere');
  });
  it('a reset link put off to tomorrow is not sent', () => {
    const reply = "Our mail system is queued up right now, so I'll resend the reset link first thing tomorrow morning.";
    expect(covered(exposed, reply, 15)).not.toContain('reset_link_sent');
    expect(covered(exposed, reply, 14)).toContain('reset_link_sent');
    expect(covered(exposed, "I'll send you a new reset link right now; it expires tomorrow morning if unused.", 15)).toContain('reset_link_sent');
  });
});
