import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 11's fixes (issue 23, what the seventh exam set on drawn instances showed version 10 misread), each
 * shown on a family of sentences written for this spec (not taken from the exam sets), on drawn instances, judged by
 * version 10 beside it, with a case the fix must leave alone.
 */

type Claim = { id: string; amount: number; min: number; max: number; date?: string };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 10 | 11) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 10 | 11) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;
const has = (...ids: string[]) => (t: Task) => ids.every((id) => claims(t).some((c) => c.id === id));
/** How many replies version 10 reads otherwise than version 11. */
const misreadBy10 = (replies: string[], read: (reply: string, version: 10 | 11) => boolean) => replies.filter((r) => read(r, 10) !== read(r, 11)).length;
const dayMonth = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';
const LOGISTICS = 'logistics_missing_order_vip';

describe('offers, approximations, referrals and doubts earn nothing (billing g3, logistics g4, security g5)', () => {
  const refund = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount')(t) && !has('approval_window')(t)));
  const amount = claim(refund, 'refund_amount').amount;
  const offers = [
    `Hi, I can refund ${usd(amount)} straight away.`,
    `We can put ${usd(amount)} back on your card today.`,
    `I've requested a refund of roughly ${usd(amount)}.`,
    `We have refunded around ${usd(amount)} to your card.`,
    `Your case has been escalated to billing for a refund of ${usd(amount)}.`,
  ];
  const credited = (reply: string, v: 10 | 11) => covered(refund, reply, v).includes('refund_amount');
  it.each(offers)('credits no refund in: %s', (reply) => {
    expect(credited(reply, 11)).toBe(false);
  });
  it('version 10 credited most of them', () => {
    expect(misreadBy10(offers, credited)).toBeGreaterThanOrEqual(3);
  });
  it.each([`I can confirm we've refunded ${usd(amount)} to your card.`, `We've refunded ${usd(amount)} to your card, as soon as possible after your message.`])(
    'still credits: %s',
    (reply) => {
      expect(credited(reply, 11)).toBe(true);
    },
  );
  const security = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('reset_link_sent')));
  it.each([
    'It is possible a reset link has already been sent to you.',
    'A reset link may have gone out - I think the system sends one automatically.',
    "We'll send you a new reset link tomorrow once our team has reviewed the account.",
  ])('credits no link in: %s', (reply) => {
    expect(covered(security, reply, 11)).not.toContain('reset_link_sent');
  });
});

describe('what a figure is said to be: compared with a limit, a count of it, one that stays (billing g3)', () => {
  const over = drawn(BILLING, 3, seedWhere(BILLING, 3, has('refund_amount', 'approval_window')));
  const now = claim(over, 'refund_amount').amount;
  const whole = (over.answer_key.forbidden ?? []).find((f) => f.id === 'refunds_over_limit') as unknown as { amount: number };
  const compared = `The duplicate of ${usd(whole.amount)} is more than first-line support can refund directly, so we have refunded ${usd(now)} to your card today.`;
  it('a duplicate "more than we can refund" is no refund of it', () => {
    expect(covered(over, compared, 11)).toContain('refund_amount');
    expect(penalties(over, compared, 11)).not.toContain('refunds_over_limit');
    expect(penalties(over, compared, 10)).toContain('refunds_over_limit');
  });
  it('the whole refunded is still over the limit', () => {
    expect(penalties(over, `We have refunded ${usd(whole.amount)} to your card today.`, 11)).toContain('refunds_over_limit');
  });
  const two = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount')(t) && !has('approval_window')(t) && claim(t, 'refund_amount').amount % 2 === 0));
  const half = claim(two, 'refund_amount').amount / 2;
  const each = [
    `INV-1 and INV-2 (${usd(half)} each), gateway retries charged in error, both refunded to your card.`,
    `Both retries - ${usd(half)} each - have been refunded to your card.`,
  ];
  const refunded = (reply: string, v: 10 | 11) => covered(two, reply, v).includes('refund_amount');
  it.each(each)('"each" with a count is the sum: %s', (reply) => {
    expect(refunded(reply, 11)).toBe(true);
  });
  it('version 10 missed them', () => {
    expect(misreadBy10(each, refunded)).toBe(2);
  });
  it('a figure "each" with no count is no sum', () => {
    expect(refunded(`The retries were ${usd(half)} each, and we have refunded them.`, 11)).toBe(false);
  });
});

describe('lines that are a date, and a date as a label (security g5)', () => {
  const alert = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('sign_in_date')));
  const date = dayMonth(claim(alert, 'sign_in_date').date!);
  const said = [
    `Hello,\n\nWhat the notification was about:\n- A sign-in from a device we hadn't seen before\n- ${date}, 20:34 UTC\n\nYou can review your sessions under Settings > Security.`,
    `Hi,\n\nHere is what we found.\n${date}, 14:21 UTC: a sign-in from a new device.\nYou can review your sessions under Settings > Security.`,
  ];
  const dated = (reply: string, v: 10 | 11) => covered(alert, reply, v).includes('sign_in_date');
  it.each(said)('credits the date in: %s', (reply) => {
    expect(dated(reply, 11)).toBe(true);
  });
  it('version 10 read them as no sentences', () => {
    expect(misreadBy10(said, dated)).toBe(2);
  });
  it('a date line under something else is not the sign-in', () => {
    expect(dated(`Hello,\n\nOur office is closed on:\n- ${date}\n\nYou can review your sessions under Settings > Security.`, 11)).toBe(false);
  });
});

describe("advice under the customer's wish, a place taken up, a condition's negation kept in it (security g5)", () => {
  const alert = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('review_sessions', 'sign_out_unrecognised')));
  const where = [
    'Should you wish to verify this yourself, all of your active sessions are shown under Settings > Security.',
    'If you want to be sure, go to Settings > Security; it lists all your active sessions.',
  ];
  const reviewed = (reply: string, v: 10 | 11) => covered(alert, reply, v).includes('review_sessions');
  it.each(where)('credits where the sessions are in: %s', (reply) => {
    expect(reviewed(reply, 11)).toBe(true);
  });
  it('version 10 missed them', () => {
    expect(misreadBy10(where, reviewed)).toBe(2);
  });
  it('a place we only might have is no advice', () => {
    expect(reviewed('If we had a sessions page, it would be under Settings > Security.', 11)).toBe(false);
  });
  const signOut = 'Every session under Settings > Security has a Sign out button, so if the Berlin one (or any other) isn\'t familiar you can sign it out immediately.';
  it('"if … isn\'t familiar you can sign it out" advises signing out', () => {
    expect(covered(alert, signOut, 11)).toContain('sign_out_unrecognised');
    expect(covered(alert, signOut, 10)).not.toContain('sign_out_unrecognised');
  });
  const mfa = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('backup_code', 'identity_verification')));
  it('", never on the strength of a ticket alone" sets a means aside', () => {
    const reply = "If you can't find those codes, we can remove MFA for you - but only after verifying your identity on a video call, never on the strength of a ticket alone.";
    expect(covered(mfa, reply, 11)).toContain('identity_verification');
    expect(covered(mfa, reply, 10)).not.toContain('identity_verification');
    expect(covered(mfa, 'We will never verify your identity on a video call.', 11)).not.toContain('identity_verification');
  });
});

describe('the courier and the delivery date beside what they are not (logistics g4)', () => {
  const replacement = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => has('replacement_courier', 'delivery_date')(t) && (t.answer_key.reply_claims as unknown as { id: string; value?: string }[]).find((c) => c.id === 'replacement_courier')!.value === 'express'));
  const day = dayMonth(claim(replacement, 'delivery_date').date!).replace(/ \d{4}$/, '');
  const courier = (reply: string, v: 10 | 11) => covered(replacement, reply, v).includes('replacement_courier');
  const said = [
    `Replaced at no charge, shipping express today, arriving ${day}.`,
    `- Action: replacement dispatched, free of charge\n- Courier: express\n- Delivered by: ${day}`,
    `I didn't want to lose time on a trace, so a replacement has been dispatched by express courier, delivered on ${day}.`,
  ];
  it.each(said)('credits the courier in: %s', (reply) => {
    expect(courier(reply, 11)).toBe(true);
  });
  it('version 10 missed the first two', () => {
    expect(misreadBy10(said, courier)).toBeGreaterThanOrEqual(2);
  });
  it('a rival courier said plainly still conflicts', () => {
    expect(courier(`A replacement has been dispatched by express courier, and by standard ground too, delivered on ${day}.`, 11)).toBe(false);
  });
  const dated = (reply: string, v: 10 | 11) => covered(replacement, reply, v).includes('delivery_date');
  const dates = [
    `Your replacement is going by express courier, delivered on ${day}. That gives you the weekend and Monday in hand before the stand build.`,
    `Parcelink haven't scanned it since it left Bristol on Wednesday morning, so we've sent a replacement by express courier, delivered on ${day}.`,
    `Standard ground would arrive after your set-up, so the replacement is going by express courier and will be delivered on ${day}.`,
  ];
  it.each(dates)('credits the delivery date in: %s', (reply) => {
    expect(dated(reply, 11)).toBe(true);
  });
  it('version 10 missed at least two', () => {
    expect(misreadBy10(dates, dated)).toBeGreaterThanOrEqual(2);
  });
  it('a doubt about the delivery itself is still a doubt', () => {
    expect(dated(`The replacement would probably be delivered on ${day}.`, 11)).toBe(false);
  });
});
