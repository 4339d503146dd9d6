import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 16's fixes (issue 23, what the twelfth exam set on drawn instances showed version 15 misread), each
 * shown on a family of sentences written for this spec (not taken from the exam sets), on drawn instances, judged by
 * version 15 beside it, with a case the fix must leave alone.
 */

type Claim = { id: string; amount: number; min: number; max: number; date?: string; value?: string };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 15 | 16) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id);
const penalties = (task: Task, reply: string, version: 15 | 16) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;
const has = (...ids: string[]) => (t: Task) => ids.every((id) => claims(t).some((c) => c.id === id));
/** How many replies version 15 reads otherwise than version 16. */
const misreadBy15 = (replies: string[], read: (reply: string, version: 15 | 16) => boolean) => replies.filter((r) => read(r, 15) !== read(r, 16)).length;
const dayMonth = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const window = (c: Claim) => (c.min === c.max ? `${c.min}` : `${c.min}-${c.max}`);

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';
const LOGISTICS = 'logistics_missing_order_vip';

describe('what the customer is asked to do once an event has happened, a short line of the credit (billing g3)', () => {
  const refund = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount', 'settlement_window')(t) && !has('approval_window')(t)));
  const amount = usd(claim(refund, 'refund_amount').amount);
  const settle = window(claim(refund, 'settlement_window'));
  const told = (reply: string, v: 15 | 16) => ['refund_amount', 'settlement_window'].every((id) => covered(refund, reply, v).includes(id));
  const asked = [
    `I've refunded the duplicate ${amount} to your card; it settles within ${settle} business days. If anything doesn't look right once the refund has settled, just reply to this ticket.`,
    `We have refunded ${amount} to your card, settling within ${settle} business days. Once the refund has settled, please check your statement and let us know if anything is off.`,
  ];
  it.each(asked)('a request waiting on the refund doubts nothing in: %s', (reply) => {
    expect(told(reply, 16)).toBe(true);
  });
  it('version 15 missed at least one', () => {
    expect(misreadBy15(asked, told)).toBeGreaterThanOrEqual(1);
  });
  it('our own act waiting on the refund still waits', () => {
    expect(covered(refund, `Once the refund of ${amount} has been approved, we will send it to your card.`, 16)).not.toContain('refund_amount');
  });
  const monthly = drawn(BILLING, 3, seedWhere(BILLING, 3, has('credit_amount', 'credit_window')));
  const credit = usd(claim(monthly, 'credit_amount').amount);
  const creditWindow = window(claim(monthly, 'credit_window'));
  it('"On your balance within N business days, used against your next invoice." is a sentence', () => {
    const reply = `Rafael - duplicate confirmed. ${credit} credited to your account. On your balance within ${creditWindow} business days, used against your next invoice.`;
    expect(covered(monthly, reply, 16)).toContain('credit_window');
    expect(covered(monthly, reply, 15)).not.toContain('credit_window');
  });
});

describe('a gloss with "=", a question after a comma, containment is no advice (security g6)', () => {
  const alert = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('sign_in_date', 'review_sessions', 'sign_out_unrecognised')));
  const day = dayMonth(claim(alert, 'sign_in_date').date!);
  const dated = (reply: string, v: 15 | 16) => covered(alert, reply, v).includes('sign_in_date');
  it('"Fergus - alert = new-device sign-in from Milan, <day>" dates the sign-in and pastes no internal field', () => {
    const reply = `Fergus - alert = new-device sign-in from Milan, IT, ${day}, 16:10 UTC. Nothing changed after it.`;
    expect(dated(reply, 16)).toBe(true);
    expect(dated(reply, 15)).toBe(false);
    expect(penalties(alert, reply, 16)).not.toContain('quotes_internal_policy');
    expect(penalties(alert, reply, 15)).toContain('quotes_internal_policy');
    expect(penalties(alert, 'Fergus - priority = high, team = security.', 16)).toContain('quotes_internal_policy');
  });
  it('"…someone signed in from a new device on <day>, so could it be a new phone?" says the sign-in, asks about the device', () => {
    const reply = `On ${day} at 16:10 UTC someone signed in from a device we hadn't seen before, in Milan - not far from Turin, so could it be a new phone or laptop?`;
    expect(dated(reply, 16)).toBe(true);
    expect(dated(reply, 15)).toBe(false);
    expect(dated(`Did someone sign in from Milan on ${day}, or could it be a new phone?`, 16)).toBe(false);
  });
  const signOut = (reply: string, v: 15 | 16) => covered(alert, reply, v).includes('sign_out_unrecognised');
  it('"your account is now locked, all sessions are signed out" is our containment, no advice', () => {
    const reply = "Hi Zeynep, we've treated this as a security incident: your account is now locked, all sessions are signed out and the export link has been cancelled.";
    expect(signOut(reply, 16)).toBe(false);
    expect(signOut(reply, 15)).toBe(true);
  });
  it('"Your active sessions are listed under Settings > Security" still says where they are', () => {
    expect(covered(alert, 'Your active sessions are all listed under Settings > Security.', 16)).toContain('review_sessions');
  });
});

describe('a replacement waiting on what we have back (logistics g4)', () => {
  const task = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => has('replacement_courier', 'delivery_date', 'shipping_credit')(t) && claim(t, 'replacement_courier').value === 'express'));
  const day = dayMonth(claim(task, 'delivery_date').date!);
  const credit = usd(claim(task, 'shipping_credit').amount);
  const told = (reply: string, v: 15 | 16) => covered(task, reply, v).length > 0;
  const waiting = [
    `Please confirm the delivery address and sign the declaration. As soon as we have both back, we'll send a replacement by express courier for delivery by ${day} and add a ${credit} shipping credit.`,
    `Once we have your confirmation, we'll ship a replacement by express courier for delivery by ${day} and add a ${credit} shipping credit.`,
  ];
  it.each(waiting)('tells nothing done in: %s', (reply) => {
    expect(told(reply, 16)).toBe(false);
  });
  it('version 15 credited both', () => {
    expect(misreadBy15(waiting, told)).toBe(waiting.length);
  });
  it('a replacement sent now, with a request after it, is sent', () => {
    expect(covered(task, `We've sent a replacement by express courier for delivery by ${day}. Once you have it, please let us know.`, 16)).toContain('replacement_courier');
  });
});
