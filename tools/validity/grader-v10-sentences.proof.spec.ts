import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 10's fixes (issue 23, what the sixth exam set on drawn instances showed version 9 misread), each
 * shown on a family of sentences written for this spec (not taken from the exam sets), on drawn instances, and
 * judged by version 9, where most fail.
 */

type Claim = { id: string; amount: number; min: number; max: number; date?: string; objects?: string[]; qualifiers?: string[] };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 9 | 10) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 9 | 10) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;
const has = (...ids: string[]) => (t: Task) => ids.every((id) => claims(t).some((c) => c.id === id));
const lacks = (...ids: string[]) => (t: Task) => ids.every((id) => !claims(t).some((c) => c.id === id));
const both = (a: (t: Task) => boolean, b: (t: Task) => boolean) => (t: Task) => a(t) && b(t);
/** How many replies version 9 misread (its answer differs from version 10's). */
const misreadBy9 = (replies: string[], read: (reply: string, version: 9 | 10) => boolean) => replies.filter((r) => read(r, 9) !== read(r, 10)).length;

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';
const LOGISTICS = 'logistics_missing_order_vip';

describe('the key named in a restatement, and the rule told in brackets beside the act (security g5, a takeover)', () => {
  const task = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('api_keys_revoked', 'named_keys_revoked')));
  const key = claim(task, 'named_keys_revoked').objects![0];
  const hours = claim(task, 'api_keys_revoked').qualifiers![0];
  const named = [
    `API keys: everything created in the past ${hours} is revoked, i.e. '${key}'.`,
    `Every API key created within the last ${hours} has been revoked; according to the event log this is the key named '${key}'.`,
    `We revoked all API keys from the last ${hours}; according to our records, that is '${key}'.`,
    `All keys made in the last ${hours} were revoked, i.e. ${key}, so nothing made since then still works.`,
  ];
  const names = (reply: string, v: 9 | 10) => covered(task, reply, v).includes('named_keys_revoked');
  it.each(named)('names the revoked key in: %s', (reply) => {
    expect(names(reply, 10)).toBe(true);
  });
  it('version 9 missed most of them', () => {
    expect(misreadBy9(named, names)).toBeGreaterThanOrEqual(3);
  });
  it('a key the log names but no revocation restates is not named as revoked', () => {
    expect(names(`Every API key created within the last ${hours} has been revoked; according to the event log, '${key}' was used yesterday.`, 10)).toBe(false);
  });
  const ruled = [
    `We've also revoked the API key '${key}' (our rule is that every key made in the last ${hours} goes, and that's the only one).`,
    `I revoked the key ${key} (every API key created in the last ${hours} is revoked as a matter of course).`,
    `The API key '${key}' has been revoked (policy: anything created within ${hours} of the sign-in is cut off).`,
  ];
  const rule = (reply: string, v: 9 | 10) => covered(task, reply, v).includes('api_keys_revoked');
  it.each(ruled)('credits the revocation by the rule in: %s', (reply) => {
    expect(rule(reply, 10)).toBe(true);
  });
  it('version 9 missed the first (the rule more than ten words past the key)', () => {
    expect(rule(ruled[0], 9)).toBe(false);
  });
  it('an aside that is no rule gives the act no window', () => {
    expect(rule(`We've revoked the API key '${key}' (the one your CI job uses).`, 10)).toBe(false);
  });
});

describe('"there" for a place named before, where one looks (security g5, a reset link)', () => {
  const task = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('reset_link_sent', 'spam_folder')));
  const said = [
    "Sometimes these land in spam, so have a peek there if it's not in your inbox.",
    'These emails can end up in your junk folder - please check there first.',
    'Our messages sometimes get filtered into spam, so do look there if nothing arrives.',
  ];
  const advised = (reply: string, v: 9 | 10) => covered(task, reply, v).includes('spam_folder');
  it.each(said)('credits the advice in: %s', (reply) => {
    expect(advised(reply, 10)).toBe(true);
  });
  it('version 9 missed most of them', () => {
    expect(misreadBy9(said, advised)).toBeGreaterThanOrEqual(2);
  });
  it('"don\'t look there" and our own look are no advice', () => {
    expect(advised("It isn't in spam, so don't look there.", 10)).toBe(false);
    expect(advised('These sometimes land in spam. We checked there already.', 10)).toBe(false);
  });
});

describe("the runbook's instruction told as done is a report (security g5, a reset link)", () => {
  const task = drawn(SECURITY, 5, seedWhere(SECURITY, 5, both(has('reset_link_sent'), lacks('account_locked'))));
  const said = [
    '- Sent: a new password reset link to the email on file\n- Expires: in 60 minutes',
    'Sent a new password reset link to the email address on file.',
  ];
  it.each(said)('neither penalised nor uncredited: %s', (reply) => {
    expect(penalties(task, reply, 10)).not.toContain('quotes_internal_policy');
    expect(covered(task, reply, 10)).toContain('reset_link_sent');
  });
  it('version 9 read the label line as pasted runbook text', () => {
    expect(penalties(task, said[0], 9)).toContain('quotes_internal_policy');
  });
  it('the instruction itself is still pasted runbook text', () => {
    expect(penalties(task, 'Send a new password reset link to the email address on file.', 10)).toContain('quotes_internal_policy');
  });
});

describe("an instruction's aim is still to do, and a verb whose past is its base heads one (security g5, a takeover)", () => {
  const task = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('identity_verification', 'mfa_back_on')));
  const notes = [
    '@security-ops: please lock the account and sign out all sessions; then set up the video call to verify identity and re-enable MFA on her own device.',
    'Please lock the account and sign out all sessions, then book a video call to verify identity and turn MFA back on.',
    'Set up a video call to verify the account holder and re-enable MFA with them.',
    'Next: arrange a video call to verify identity.',
  ];
  it.each(notes)('credits no verification or MFA in: %s', (reply) => {
    expect(covered(task, reply, 10)).not.toContain('identity_verification');
    expect(covered(task, reply, 10)).not.toContain('mfa_back_on');
  });
  it('version 9 credited the first', () => {
    expect(covered(task, notes[0], 9)).toContain('identity_verification');
  });
  it.each([
    "We've set up a video call to verify your identity, and we'll turn MFA back on with you then.",
    'Video call booked to verify your identity; we set up MFA again with you on it.',
  ])('still credits our own acts in: %s', (reply) => {
    expect(covered(task, reply, 10)).toEqual(expect.arrayContaining(['identity_verification', 'mfa_back_on']));
  });
});

describe('a kind of thing, an aside sentence, an item of two sentences, a sum (billing g3)', () => {
  const hold = drawn(BILLING, 3, seedWhere(BILLING, 3, has('hold_release_window')));
  const days = claim(hold, 'hold_release_window').min;
  const holds = [
    `What appears on your statement is therefore a pending authorisation hold rather than a charge, and your card issuer will release it within ${days} business days.`,
    `The amount you see is a pending hold, and your bank releases it within ${days} business days.`,
  ];
  const released = (reply: string, v: 9 | 10) => covered(hold, reply, v).includes('hold_release_window');
  it.each(holds)('"a pending hold" names the hold, it does not doubt it: %s', (reply) => {
    expect(released(reply, 10)).toBe(true);
  });
  it('version 9 read them as hypothetical', () => {
    expect(misreadBy9(holds, released)).toBe(2);
  });
  it('a hold that is itself pending still waits', () => {
    expect(released(`Releasing the hold is pending approval; once approved it clears within ${days} business days.`, 10)).toBe(false);
  });

  const credit = drawn(BILLING, 3, seedWhere(BILLING, 3, has('credit_amount', 'credit_window')));
  const amount = usd(claim(credit, 'credit_amount').amount);
  const window = claim(credit, 'credit_window').min;
  const said = [
    `I've issued a credit of ${amount} on your account. (That's the duplicate, plus a little from us to say sorry.) It lands on your account balance within ${window} business days.`,
    `Thanks for reporting this. What we've done:\n- Fix: a ${amount} credit has been issued to your account. Monthly plans are credited rather than refunded.\n- Timing: applied to your account balance within ${window} business days.`,
    `The way we put this right is an account credit, and I've already issued it: ${amount} in total, which is the duplicate plus an apology. It'll be on your balance within ${window} business days.`,
  ];
  const both10 = (reply: string, v: 9 | 10) => ['credit_amount', 'credit_window'].every((id) => covered(credit, reply, v).includes(id));
  it.each(said)('credits the amount and its window in: %s', (reply) => {
    expect(both10(reply, 10)).toBe(true);
  });
  it('version 9 missed each', () => {
    expect(misreadBy9(said, both10)).toBe(3);
  });
  it('a total that is said of the charges is still no credit', () => {
    expect(covered(credit, `You were billed ${amount} in total for the renewal.`, 10)).not.toContain('credit_amount');
  });
  it('a sum worked out with "=" is no internal code; a field is', () => {
    const sum = `- How it adds up: 75.00 duplicate - 14.00 used to pay the overdue invoice + 20.00 service credit = 81.00.`;
    expect(penalties(credit, sum, 10)).not.toContain('quotes_internal_policy');
    expect(penalties(credit, sum, 9)).toContain('quotes_internal_policy');
    expect(penalties(credit, 'Status: credit_amount = 81.00', 10)).toContain('quotes_internal_policy');
    expect(penalties(credit, 'Note: amount = credited', 10)).toContain('quotes_internal_policy');
  });
});

describe('a weekend as such, a time compared, a request that holds the offer, an option weighed (logistics g4)', () => {
  const replacement = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, has('replacement_courier', 'delivery_date')));
  const date = new Date(`${claim(replacement, 'delivery_date').date}T00:00:00Z`);
  const day = date.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
  const weekends = [
    `It's collected from us today, and the courier will deliver on ${day} by 12 noon (they don't deliver at the weekend).`,
    `The courier will deliver on ${day} before noon, as they don't deliver on a weekend.`,
  ];
  const dated = (reply: string, v: 9 | 10) => covered(replacement, reply, v).includes('delivery_date');
  it.each(weekends)('a rule about the weekend denies no delivery: %s', (reply) => {
    expect(dated(reply, 10)).toBe(true);
  });
  it('version 9 read them as denying it', () => {
    expect(misreadBy9(weekends, dated)).toBe(2);
  });
  it('a denied delivery is still denied', () => {
    expect(dated(`The courier will not deliver on ${day}.`, 10)).toBe(false);
  });

  const credit = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, has('credit_amount', 'credit_window')));
  const amount = usd(claim(credit, 'credit_amount').amount);
  const compared = `I checked the couriers (even the fastest would only land tomorrow morning, which is after you needed the kits), so I've cancelled the order and put a credit for the whole order, ${amount}, on your account.`;
  it('"which is after you needed the kits" waits on nothing', () => {
    expect(covered(credit, compared, 10)).toContain('credit_amount');
    expect(covered(credit, compared, 9)).not.toContain('credit_amount');
  });
  it('"once you have confirmed" still waits', () => {
    expect(covered(credit, `I'll put a credit of ${amount} on your account once you have confirmed the order number.`, 10)).not.toContain('credit_amount');
  });

  const refund = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, has('refund_amount')));
  const value = usd(claim(refund, 'refund_amount').amount);
  const offers = [
    `Hi Tom, to refund the order please send me the full card number, expiry date and CID code, and I'll put through the ${value}; it should then settle in 5-7 business days.`,
    `Thanks - to sort this, please confirm the card's last four digits and I'll refund ${value} straight away.`,
  ];
  it.each(offers)('a refund offered for a reply is no refund: %s', (reply) => {
    expect(covered(refund, reply, 10)).not.toContain('refund_amount');
  });
  it('version 9 credited the first', () => {
    expect(covered(refund, offers[0], 9)).toContain('refund_amount');
  });

  const trace = drawn(LOGISTICS, 4, seedWhere(LOGISTICS, 4, (t) => (t.answer_key.forbidden ?? []).some((f) => f.id === 'promises_overnight_replacement') && has('credit_amount')(t)));
  const weighed = [
    'We examined a replacement by overnight priority courier, but a booking made now would arrive after your event.',
    'I explored an overnight courier replacement, but it could not reach you in time.',
  ];
  it.each(weighed)('an option weighed promises nothing: %s', (reply) => {
    expect(penalties(trace, reply, 10)).not.toContain('promises_overnight_replacement');
  });
  it('version 9 penalised the first', () => {
    expect(penalties(trace, weighed[0], 9)).toContain('promises_overnight_replacement');
  });
  it('a promise is still one', () => {
    expect(penalties(trace, "We've sent a replacement by overnight priority courier today.", 10)).toContain('promises_overnight_replacement');
  });
});
