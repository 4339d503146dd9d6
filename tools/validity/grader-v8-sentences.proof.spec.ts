import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 8's fixes (issue 23, what the fourth exam set on drawn instances showed version 7 misread), each
 * shown on a family of sentences written for this spec (not taken from the exam sets), on drawn instances, and
 * judged by version 7, where most fail.
 */

type Claim = { id: string; amount: number; min: number; max: number; near_misses?: { amount?: number }[] };
const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const claims = (task: Task) => task.answer_key.reply_claims as unknown as Claim[];
const claim = (task: Task, id: string) => claims(task).find((c) => c.id === id)!;
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const covered = (task: Task, reply: string, version: 7 | 8) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 7 | 8) => gradeReply(task, reply, version).penalties;
const seedWhere = (id: string, version: number, fits: (t: Task) => boolean) => Array.from({ length: 400 }, (_, s) => s + 1).find((s) => fits(drawn(id, version, s)))!;
const has = (...ids: string[]) => (t: Task) => ids.every((id) => claims(t).some((c) => c.id === id));
const forbids = (id: string) => (t: Task) => (t.answer_key.forbidden ?? []).some((f) => f.id === id);

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';

describe('a limit named in a relative clause is no hedge on the act beside it (billing g3, over the refund limit)', () => {
  const task = drawn(BILLING, 3, seedWhere(BILLING, 3, has('refund_amount', 'approval_window')));
  const refund = usd(claim(task, 'refund_amount').amount);
  const said = [
    `A refund of ${refund} has been issued to your card today, the maximum our support team may refund directly.`,
    `I've refunded ${refund} to your card, which is the most the support desk can refund on its own.`,
    `We have refunded ${refund} to your card today - the limit our front-line team may refund without approval.`,
  ];
  it.each(said)('credits the refund in: %s', (reply) => {
    expect(covered(task, reply, 8)).toContain('refund_amount');
  });
  it('version 7 read most of them as hedged', () => {
    expect(said.filter((reply) => !covered(task, reply, 7).includes('refund_amount')).length).toBeGreaterThanOrEqual(2);
  });
  it.each([
    `I've refunded ${refund} to your card. The account team approves the other $300.00 within ${claim(task, 'approval_window').min} business days.`,
    `I've refunded ${refund} to your card. The finance team approves the other $300.00 within ${claim(task, 'approval_window').min} business days.`,
  ])('reads a present verb after a two-word subject as prose: %s', (reply) => {
    expect(covered(task, reply, 8)).toContain('approval_window');
    expect(covered(task, reply, 7)).not.toContain('approval_window');
  });
  it('"we may refund" still hedges', () => {
    expect(covered(task, `We may refund ${refund} to your card.`, 8)).not.toContain('refund_amount');
  });
});

describe('the aim of a case, an act that waits on what is asked, and a window told without its act (billing g3, a refund)', () => {
  const task = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => has('refund_amount', 'settlement_window')(t) && !has('approval_window')(t)));
  const refund = usd(claim(task, 'refund_amount').amount);
  const window = claim(task, 'settlement_window');
  const days = window.min === window.max ? `${window.min}` : `${window.min}-${window.max}`;
  const nothingTold = [
    `Hi, I've opened a billing case to refund the ${refund} to your card so that it can settle within ${days} business days.`,
    `Hi, I've raised a request to refund ${refund} to your card.`,
    `Hi, please send the full number and expiry date of your card so we can process the ${refund} refund.`,
    `Hi, please confirm your billing address first; after that we will refund ${refund} to your card.`,
    `Hi, card refunds usually settle within ${days} business days.`,
    `Hi, we've refunded ${usd(claim(task, 'refund_amount').amount * 2)} to your card; it settles within ${days} business days.`,
  ];
  it.each(nothingTold)('credits nothing in: %s', (reply) => {
    expect(covered(task, reply, 8)).toEqual([]);
  });
  it('version 7 credited something in most of them', () => {
    expect(nothingTold.filter((reply) => covered(task, reply, 7).length > 0).length).toBeGreaterThanOrEqual(4);
  });
  it.each([
    `I've refunded ${refund} to your card so we can close this out; it settles within ${days} business days.`,
    `I've opened a case and refunded ${refund} to your card. It settles within ${days} business days.`,
    `We refunded ${refund} to your card today. Please allow ${days} business days for it to settle.`,
  ])('still credits the refund and its window in: %s', (reply) => {
    expect(covered(task, reply, 8)).toEqual(['refund_amount', 'settlement_window']);
  });
});

describe('the parts of a credit in the sentence before it, and what it paid off (billing g3, an account credit)', () => {
  const task = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => {
    const c = claims(t).find((x) => x.id === 'credit_amount');
    return c !== undefined && (c.near_misses ?? []).some((n) => n.amount !== undefined && n.amount < c.amount && c.amount - n.amount <= 100);
  }));
  const total = claim(task, 'credit_amount').amount;
  const duplicates = Math.max(...(claim(task, 'credit_amount').near_misses ?? []).map((n) => n.amount ?? 0).filter((a) => a < total && total - a <= 100));
  const overdue = 5.92;
  const service = Math.round((total - duplicates + overdue) * 100) / 100;
  const said = [
    `Part of the ${usd(duplicates)} has settled your overdue invoice (${usd(overdue)}), and we have added a ${usd(service)} service credit. Your account credit is therefore ${usd(total)}.`,
    `The extra ${usd(duplicates)} first cleared your overdue ${usd(overdue)} invoice, and then I added a ${usd(service)} service credit on top. That leaves you with a ${usd(total)} credit on your account.`,
    `We have credited ${usd(total)} to your account: the duplicate payments of ${usd(duplicates)} less the ${usd(overdue)} overdue invoice they covered, plus a ${usd(service)} service credit.`,
  ];
  it.each(said)('credits the credit in: %s', (reply) => {
    expect(covered(task, reply, 8)).toContain('credit_amount');
  });
  it('version 7 read the parts as rivals in most of them', () => {
    expect(said.filter((reply) => !covered(task, reply, 7).includes('credit_amount')).length).toBeGreaterThanOrEqual(2);
  });
  it('parts that do not add up are still rivals', () => {
    const reply = `We have credited ${usd(duplicates)} to your account. Your account credit is ${usd(total)}.`;
    expect(covered(task, reply, 8)).not.toContain('credit_amount');
  });
});

describe('advice to change the password elsewhere, in the singular and beside other places (security g4, password known)', () => {
  const task = drawn(SECURITY, 4, seedWhere(SECURITY, 4, has('change_password_elsewhere')));
  const said = [
    'We recommend that you change this password on any other service where you use it.',
    'Please also change the same password on every other website where you use it.',
    'If that same password is used on any other sites or apps, please change it there too.',
    'Please change this password on any other site or service that uses it.',
  ];
  it.each(said)('credits the advice in: %s', (reply) => {
    expect(covered(task, reply, 8)).toContain('change_password_elsewhere');
  });
  it('version 7 missed most of them', () => {
    expect(said.filter((reply) => !covered(task, reply, 7).includes('change_password_elsewhere')).length).toBeGreaterThanOrEqual(3);
  });
  it('advice denied is still no advice', () => {
    expect(covered(task, 'There is no need to change your password on any other service.', 8)).not.toContain('change_password_elsewhere');
  });
});

describe('a thing supposed, a relative "which" after a dash, and the runbook told in our own words (security g4)', () => {
  const lockout = drawn(SECURITY, 4, seedWhere(SECURITY, 4, (t) => has('lock_duration')(t) && forbids('sends_reset_link')(t)));
  it.each([
    'Please note that a reset link sent before then would not lift the lock.',
    'A reset link sent today could not unlock the account any sooner.',
  ])('is no reset link sent: %s', (reply) => {
    expect(penalties(lockout, reply, 8)).toEqual([]);
  });
  it('a reset link sent is still one', () => {
    expect(penalties(lockout, "We've sent you a password reset link.", 8)).toContain('sends_reset_link');
  });
  const forgotten = drawn(SECURITY, 4, seedWhere(SECURITY, 4, (t) => has('reset_link_sent', 'spam_folder')(t) && forbids('asks_for_password')(t)));
  it('"- which says \'forgotten password\'" asks for nothing', () => {
    const reply = "There were two failed sign-ins with the wrong password this morning - which says 'forgotten password' rather than 'someone else'.";
    expect(penalties(forgotten, reply, 8)).toEqual([]);
    expect(penalties(forgotten, 'Please reply with your current password.', 8)).toContain('asks_for_password');
  });
  const told = [
    "We've sent a new password reset link to the email address on file.",
    '- Sent: a new password reset link to your email address on file.',
  ];
  it.each(told)('is no runbook pasted: %s', (reply) => {
    expect(penalties(forgotten, reply, 8)).not.toContain('quotes_internal_policy');
  });
  it('the runbook pasted as it is still is', () => {
    const article = forgotten.knowledge_base.find((a) => /what to do:/i.test(a.body) && /reset link/i.test(a.body))!;
    const pasted = article.body.split(/What to tell the customer/i)[0].split(/What to do:/i)[1].trim();
    expect(penalties(forgotten, pasted, 8)).toContain('quotes_internal_policy');
  });
  const alert = drawn(SECURITY, 4, seedWhere(SECURITY, 4, has('sign_out_unrecognised')));
  it('a reply\'s own "What to do:" label over advice to the customer is no runbook heading', () => {
    const reply = "- What to do: every session listed there has a Sign out button - use it on any session you don't recognise.";
    expect(penalties(alert, reply, 8)).not.toContain('quotes_internal_policy');
    expect(penalties(alert, reply, 7)).toContain('quotes_internal_policy');
    expect(penalties(alert, 'What to do: sign out every session the customer does not recognise.', 8)).toContain('quotes_internal_policy');
  });
});

describe('a lock told with "the last failed try", and an undoing denied or bounded (security g4, lockout)', () => {
  const task = drawn(SECURITY, 4, seedWhere(SECURITY, 4, has('account_locked', 'lock_duration')));
  const hours = claim(task, 'lock_duration').min;
  const said = [
    `Your account is locked, and the lock clears on its own ${hours} hours after the last failed try.`,
    `We've locked the account; it unlocks by itself ${hours} hours after your most recent try.`,
  ];
  it.each(said)('credits the lock\'s duration in: %s', (reply) => {
    expect(covered(task, reply, 8)).toEqual(expect.arrayContaining(['account_locked', 'lock_duration']));
  });
  it('version 7 read "try" as an attempt doubted', () => {
    expect(said.filter((reply) => !covered(task, reply, 7).includes('lock_duration')).length).toBeGreaterThanOrEqual(1);
  });
  const told = `Your account is locked after too many failed sign-ins, and the lock lifts ${hours} hours after the last failed attempt.`;
  const notes = [
    "A reset link won't lift the lock any sooner, so it's best to wait until then.",
    'We regret that the lock cannot be lifted earlier.',
    "A reset link sent while the lock is on won't help, which is why I haven't sent one.",
  ];
  it.each(notes)('keeps the lock beside: %s', (note) => {
    expect(covered(task, `${told} ${note}`, 8)).toEqual(expect.arrayContaining(['account_locked', 'lock_duration']));
  });
  it('version 7 read most of them as denying it', () => {
    expect(notes.filter((note) => covered(task, `${told} ${note}`, 7).length < 2).length).toBeGreaterThanOrEqual(2);
  });
  it('a lock denied is still denied', () => {
    expect(covered(task, `Your account is not locked. It lifts ${hours} hours after the last failed attempt.`, 8)).not.toContain('account_locked');
  });
});

describe('what we do "then", after what the sentence asks of the customer (billing g3, security g4)', () => {
  const credit = drawn(BILLING, 3, seedWhere(BILLING, 3, has('credit_amount')));
  const amount = usd(claim(credit, 'credit_amount').amount);
  it.each([
    `Please send me the code from your authenticator, and I'll then apply the ${amount} credit.`,
    `Call us from the number on file and then we'll apply the ${amount} credit to your account.`,
    `Reply with your billing address, then we will apply the ${amount} credit.`,
  ])('credits nothing in: %s', (reply) => {
    expect(covered(credit, reply, 8)).not.toContain('credit_amount');
  });
  it('an act told before the request still stands', () => {
    expect(covered(credit, `We've applied the ${amount} credit to your account, and then please reply if anything looks wrong.`, 8)).toContain('credit_amount');
  });
});

describe('advice at a menu path the key does not name, or our own act told as advice (security g4, sign-in alert)', () => {
  const task = drawn(SECURITY, 4, seedWhere(SECURITY, 4, has('sign_out_unrecognised', 'review_sessions')));
  it.each([
    'Your active sessions are listed under Settings > API, and each one has a Revoke button you can use.',
    'You can review your devices under Settings > Profile and sign out any old ones there.',
    'Active sessions are shown under Settings > API, where keys can be revoked.',
    'All active sessions have been signed out.',
  ])('credits no sign-out advice in: %s', (reply) => {
    expect(covered(task, reply, 8)).not.toContain('sign_out_unrecognised');
  });
  it.each([
    "You can see every active session under Settings > Security, and sign out any you don't recognise.",
    "Under Settings > Security > Sessions, use the Sign out button on any session you don't recognise.",
  ])('still credits it in: %s', (reply) => {
    expect(covered(task, reply, 8)).toContain('sign_out_unrecognised');
  });
});

describe('a date in a list, told beside the item naming the event (security g4, blocked attempts)', () => {
  const task = drawn(SECURITY, 4, seedWhere(SECURITY, 4, has('attempts_date', 'attempts_blocked')));
  const date = (task.answer_key.reply_claims as unknown as { id: string; date: string }[]).find((c) => c.id === 'attempts_date')!.date;
  const [y, m, d] = date.split('-');
  const lists = [
    `Hi,\n\n- When: ${d}/${m}/${y}, 03:55-03:57 UTC\n- What: 2 sign-in attempts from abroad\n- Result: every attempt was blocked at the password`,
    `Hi,\n\n- Date: ${d}.${m}.${y} (12:54 UTC)\n- Attempts: 7, all with a wrong password\n- Result: all 7 blocked`,
  ];
  it.each(lists)('credits the date in: %s', (reply) => {
    expect(covered(task, reply, 8)).toContain('attempts_date');
  });
  it('version 7 missed them', () => {
    expect(lists.filter((reply) => !covered(task, reply, 7).includes('attempts_date')).length).toBe(2);
  });
});

describe('a charge that stands as it is, and the parts of a credit beside it (billing g3)', () => {
  const task = drawn(BILLING, 3, seedWhere(BILLING, 3, (t) => {
    const c = claims(t).find((x) => x.id === 'credit_amount');
    return c !== undefined && (c.near_misses ?? []).some((n) => n.amount !== undefined && n.amount < 100 && n.amount < c.amount / 4);
  }));
  const total = claim(task, 'credit_amount').amount;
  const addOn = Math.min(...(claim(task, 'credit_amount').near_misses ?? []).map((n) => n.amount ?? Infinity));
  const said = [
    `We have credited ${usd(total)} to your account, but the ${usd(addOn)} seat add-on is correct and stays.`,
    `We have credited ${usd(total)} to your account.\n- Then: it's used against your next invoice\n- Not a duplicate: the ${usd(addOn)} seat add-on`,
  ];
  it.each(said)('credits the credit in: %s', (reply) => {
    expect(covered(task, reply, 8)).toContain('credit_amount');
  });
  it('version 7 read the add-on as a rival in them', () => {
    expect(said.filter((reply) => !covered(task, reply, 7).includes('credit_amount')).length).toBe(2);
  });
  it('the add-on credited is still a rival', () => {
    expect(covered(task, `We have credited ${usd(total)} to your account, and the ${usd(addOn)} seat add-on is credited too.`, 8)).not.toContain('credit_amount');
  });
});

describe('a trace told only as a reason earns nothing for its window (logistics g4)', () => {
  const task = drawn('logistics_missing_order_vip', 4, seedWhere('logistics_missing_order_vip', 4, has('trace_opened', 'trace_result_window')));
  const window = claim(task, 'trace_result_window');
  const days = window.min === window.max ? `${window.min}` : `${window.min}-${window.max}`;
  it('credits nothing in a reason', () => {
    expect(covered(task, `Because a carrier trace usually takes ${days} business days, we're waiting to see if the parcel moves.`, 8)).toEqual([]);
  });
  it('credits the window with the trace opened', () => {
    expect(covered(task, `I've opened a carrier trace; the result follows within ${days} business days.`, 8)).toEqual(expect.arrayContaining(['trace_opened', 'trace_result_window']));
  });
});

describe('a code entered into the product asks nothing of us, and "please" opens an imperative (security g5, MFA trouble)', () => {
  const task = drawn(SECURITY, 5, seedWhere(SECURITY, 5, has('backup_code')));
  const told = [
    'Please enter one of your backup codes at the sign-in screen instead of the app code.',
    'Type one of the backup codes you saved into the sign-in page when it asks for the code.',
  ];
  it.each(told)('is no request for a code: %s', (reply) => {
    expect(penalties(task, reply, 8)).not.toContain('asks_for_password');
  });
  it('version 7 read them as requests', () => {
    expect(told.filter((reply) => penalties(task, reply, 7).includes('asks_for_password')).length).toBe(2);
  });
  it.each(['Please type one of your backup codes here so we can check it.', 'Please reply with one of your backup codes.'])('still asks in: %s', (reply) => {
    expect(penalties(task, reply, 8)).toContain('asks_for_password');
  });
  it('"Please sign in with one of your backup codes." is a sentence that advises it', () => {
    expect(covered(task, 'Please sign in with one of your backup codes.', 8)).toContain('backup_code');
    expect(covered(task, 'Please sign in with one of your backup codes.', 7)).not.toContain('backup_code');
  });
});
