import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 14's fixes (issue 23, what the tenth exam set on drawn instances showed version 13 misread), each
 * shown on a family of sentences written for this spec (not taken from the exam sets), on drawn instances, judged by
 * version 13 beside it, with a case the fix must leave alone.
 */

type Claim = { id: string; amount: number; min: number; max: number; date?: string; value?: string };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 13 | 14) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 13 | 14) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;
const has = (...ids: string[]) => (t: Task) => ids.every((id) => claims(t).some((c) => c.id === id));
/** How many replies version 13 reads otherwise than version 14. */
const misreadBy13 = (replies: string[], read: (reply: string, version: 13 | 14) => boolean) => replies.filter((r) => read(r, 13) !== read(r, 14)).length;
const dayMonth = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';
const LOGISTICS = 'logistics_missing_order_vip';

describe('a charge taken up by "it", a worked value after "=" (billing g3)', () => {
  const refund = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount')(t) && !has('approval_window')(t)));
  const amount = usd(claim(refund, 'refund_amount').amount);
  it('"the second $X charge … came from a gateway retry. I have refunded it to your card" refunds $X', () => {
    const reply = `Hi Sam, the second ${amount} charge for your renewal came from an automatic gateway retry. I have refunded it to your card.`;
    expect(covered(refund, reply, 14)).toContain('refund_amount');
    expect(covered(refund, reply, 13)).not.toContain('refund_amount');
    expect(covered(refund, `Hi Sam, the second ${amount} charge came from an automatic gateway retry. I have checked it.`, 14)).not.toContain('refund_amount');
  });
  it('"2 x USD 1,710.00 = USD 3,420.00" is a sum worked out, no internal field', () => {
    const reply = `Hi Sam,\n2 extra payments (gateway retries): 2 x USD 1,710.00 = USD 3,420.00\nWe have refunded ${amount} to your card.`;
    expect(penalties(refund, reply, 14)).not.toContain('quotes_internal_policy');
    expect(penalties(refund, reply, 13)).toContain('quotes_internal_policy');
    expect(penalties(refund, `Hi Sam, resolution = refund_issued. We have refunded ${amount} to your card.`, 14)).toContain('quotes_internal_policy');
  });
});

describe('a lock that locked itself, blocks said another way, a rule told with "always" (security g6)', () => {
  const lockout = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('account_locked', 'lock_duration')));
  const locked = (reply: string, v: 13 | 14) => covered(lockout, reply, v).includes('account_locked');
  it('"after a run of wrong passwords earlier today the account locked itself" says the account is locked', () => {
    const reply = 'After a run of wrong passwords from Graz earlier today the account locked itself, which is the normal protection.';
    expect(locked(reply, 14)).toBe(true);
    expect(locked(reply, 13)).toBe(false);
    expect(locked('The earlier account was locked, not this one.', 14)).toBe(false);
  });
  const blocked = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('attempts_blocked', 'attempts_date')));
  const date = dayMonth(claim(blocked, 'attempts_date').date!);
  const isBlocked = (reply: string, v: 13 | 14) => covered(blocked, reply, v).includes('attempts_blocked');
  const said = [
    `On ${date} someone tried to sign in eight times. Every single attempt was stopped and nobody got in.`,
    `There were eight sign-in attempts on ${date}. All were stopped, and nobody got in.`,
  ];
  it.each(said)('credits the block in: %s', (reply) => {
    expect(isBlocked(reply, 14)).toBe(true);
  });
  it('version 13 missed at least one', () => {
    expect(misreadBy13(said, isBlocked)).toBeGreaterThanOrEqual(1);
  });
  it('"one succeeded and nobody else got in" still does not say every attempt was blocked', () => {
    expect(isBlocked(`On ${date} one sign-in attempt succeeded and nobody else got in.`, 14)).toBe(false);
  });
  const mfa = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('identity_verification', 'backup_code')));
  const verified = (reply: string, v: 13 | 14) => covered(mfa, reply, v).includes('identity_verification');
  it('"Should you no longer hold those codes, please be aware that … only after verifying … on a video call" tells the rule', () => {
    const reply = "Should you no longer hold those codes, please be aware that our support team removes MFA only after verifying the account holder's identity on a video call.";
    expect(verified(reply, 14)).toBe(true);
    expect(verified(reply, 13)).toBe(false);
    expect(verified('Should we verify your identity on a video call?', 14)).toBe(false);
  });
  it('"Get in with a backup code" advises the backup code; a purpose opening the sentence does not', () => {
    expect(covered(mfa, 'Get in with a backup code: one of those you saved when you set up MFA.', 14)).toContain('backup_code');
    expect(covered(mfa, 'Hi Ingrid, so that you can sign in with a backup code, I have forwarded your ticket to our technical team.', 14)).not.toContain('backup_code');
    expect(covered(mfa, 'Hi Ingrid, so that you can sign in with a backup code, I have forwarded your ticket to our technical team.', 13)).toContain('backup_code');
  });
  const exposed = drawn(SECURITY, 6, seedWhere(SECURITY, 6, has('change_password_elsewhere', 'reset_link_sent')));
  it('"we\'ll … advise you on whether to change your password elsewhere" advises nothing yet', () => {
    const reply = "Once you reply, we'll send a reset link and advise you on whether to change your password elsewhere.";
    expect(covered(exposed, reply, 14)).not.toContain('change_password_elsewhere');
    expect(covered(exposed, reply, 13)).toContain('change_password_elsewhere');
  });
  it('"I\'ve just emailed a fresh password-reset link" sends the reset link', () => {
    const reply = "I've just emailed a fresh password-reset link to your address on file.";
    expect(covered(exposed, reply, 14)).toContain('reset_link_sent');
    expect(covered(exposed, reply, 13)).not.toContain('reset_link_sent');
  });
});

describe('the courier named after a sending verb and its particle, a short delivery line, a reason with a noun (logistics g4)', () => {
  const express = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => has('replacement_courier', 'delivery_date')(t) && claim(t, 'replacement_courier').value === 'express'));
  const day = dayMonth(claim(express, 'delivery_date').date!);
  const courier = (reply: string, v: 13 | 14) => covered(express, reply, v).includes('replacement_courier');
  it('"A new batch is going out to you express" names the service', () => {
    const reply = `A brand-new batch is going out to you express (no charge), and it'll be with you by ${day}.`;
    expect(courier(reply, 14)).toBe(true);
    expect(courier(reply, 13)).toBe(false);
    expect(courier(`The express lane at our warehouse is closed; the replacement will be with you by ${day}.`, 14)).toBe(false);
  });
  const ground = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => has('replacement_courier', 'delivery_date')(t) && claim(t, 'replacement_courier').value === 'standard_ground'));
  const groundDay = dayMonth(claim(ground, 'delivery_date').date!);
  it('"As your event isn\'t until the 28th, standard ground gets them to you" keeps the courier', () => {
    const reply = `As your awards evening isn't until later, standard ground gets them to you comfortably: they will be delivered by ${groundDay}.`;
    expect(covered(ground, reply, 14)).toContain('replacement_courier');
    expect(covered(ground, reply, 13)).not.toContain('replacement_courier');
  });
  const overnight = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => has('replacement_courier', 'delivery_date')(t) && claim(t, 'replacement_courier').value === 'overnight'));
  const overnightDay = dayMonth(claim(overnight, 'delivery_date').date!).replace(/^(\w{3})\w*/, '$1');
  it('"Delivery by Tue 23 Feb before noon." is a sentence of its own', () => {
    const reply = `The replacement ships by overnight priority courier. Delivery by ${overnightDay} before noon.`;
    expect(covered(overnight, reply, 14)).toContain('delivery_date');
    expect(covered(overnight, reply, 13)).not.toContain('delivery_date');
  });
});
