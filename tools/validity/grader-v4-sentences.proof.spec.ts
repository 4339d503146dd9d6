import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 4's fixes (issue 23), each shown on a family of sentences, several wordings each, written for this
 * spec (not taken from the development set the fixes were made against), on drawn instances, with the correct
 * counterpart of each adversarial family credited. Each family is also judged by version 3, where it fails: the
 * spec says what changed.
 */

const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const claim = (task: Task, id: string) => task.answer_key.reply_claims!.find((c) => c.id === id)! as unknown as { amount: number; min: number; max: number; date: string; near_misses: { date?: string }[] };
const covered = (task: Task, reply: string, version: 3 | 4) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const longDay = (iso: string) => new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });

describe('a purpose or a precondition states no done act (billing, annual plan: a card refund)', () => {
  const task = drawn('billing_duplicate_charge', 2, 1);
  const amount = usd(claim(task, 'refund_amount').amount);
  const { min, max } = claim(task, 'settlement_window');
  const window = `${min}-${max} business days`;
  const telling = [
    `To process the ${amount} refund we first need to confirm the last four digits of the card.`,
    `In order to refund the duplicate ${amount}, our billing team first needs a copy of your bank statement.`,
    `Once you send us a screenshot of both charges, we'll refund the duplicate ${amount}, which settles within ${window}.`,
    `As soon as we have those details, the ${amount} refund will be issued and it will settle within ${window}.`,
    `Hi there, so that the ${amount} can be refunded within ${window}, I've passed your ticket to the billing team.`,
    `Once verified, the duplicate ${amount} will be refunded and will settle within ${window}.`,
  ];
  it.each(telling)('credits nothing in: %s', (reply) => {
    expect(covered(task, reply, 4)).toEqual([]);
  });
  it('version 3 credited most of them', () => {
    expect(telling.filter((reply) => covered(task, reply, 3).length > 0).length).toBeGreaterThanOrEqual(4);
  });

  const correct = [
    `To make up for the trouble, we've refunded the duplicate ${amount} to your card; it settles within ${window}.`,
    `We have refunded the duplicate ${amount} to your card, and it settles within ${window} once your bank posts it.`,
    `The duplicate ${amount} has been refunded to your card, after which it takes ${window} to settle.`,
  ];
  it.each(correct)('credits both details in: %s', (reply) => {
    expect(covered(task, reply, 4)).toEqual(['refund_amount', 'settlement_window']);
  });
});

describe('the date said of the delivery, beside the courier collection day (logistics g3)', () => {
  const task = drawn('logistics_missing_order_vip', 3, 3);
  const delivery = longDay(claim(task, 'delivery_date').date);
  const collection = longDay(claim(task, 'delivery_date').near_misses.find((n) => n.date !== undefined)!.date!);
  const opening = 'We have dispatched a replacement by overnight priority courier at no charge.';
  const correct = [
    `The courier collects it on ${collection} and delivers it on ${delivery} before 12:00.`,
    `It will be collected on ${collection} and delivered on ${delivery} before 12:00.`,
    `As it was booked after the cut-off, collection is on ${collection} and it will reach you on ${delivery}, before noon.`,
    `Pickup is ${collection}; it arrives ${delivery} before 12:00.`,
  ];
  it.each(correct)('credits the delivery date in: %s', (sentence) => {
    expect(covered(task, `${opening} ${sentence}`, 4)).toContain('delivery_date');
  });
  it('version 3 read most of them as two values for one slot', () => {
    expect(correct.filter((sentence) => !covered(task, `${opening} ${sentence}`, 3).includes('delivery_date')).length).toBeGreaterThanOrEqual(2);
  });

  const swapped = [
    `The courier collects it on ${delivery} and delivers it on ${collection} before 12:00.`,
    `It will be delivered on ${collection}, before 12:00.`,
    `It will be delivered on ${delivery} or ${collection}, before 12:00.`,
  ];
  it.each(swapped)('does not credit a wrong or doubled delivery date in: %s', (sentence) => {
    expect(covered(task, `${opening} ${sentence}`, 4)).not.toContain('delivery_date');
  });

  const habitual = [
    `Couriers don't deliver at weekends, so it will be delivered on ${delivery} before 12:00.`,
    `There are no deliveries on Sundays; it will be delivered on ${delivery} before 12:00.`,
  ];
  it.each(habitual)('reads what never happens as a rule as no denial of this delivery: %s', (sentence) => {
    expect(covered(task, `${opening} ${sentence}`, 4)).toContain('delivery_date');
  });
  it('still reads a denial of this delivery as one', () => {
    expect(covered(task, `${opening} It will not be delivered on ${delivery}.`, 4)).not.toContain('delivery_date');
  });
});

describe('what a sentence sets aside or qualifies leaves the rest standing (billing, monthly plan: an account credit)', () => {
  const task = drawn('billing_duplicate_charge', 2, 3);
  const amount = usd(claim(task, 'credit_amount').amount);
  const days = claim(task, 'credit_window').max;
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen'][days];
  const correct = [
    `We've credited ${amount} to your account (monthly plans are credited, not refunded to the card), and it will show on your next invoice within ${days} business days.`,
    `Done: ${amount} credited to your account, not to the card, and it appears on your next invoice within ${days} business days.`,
    `The duplicate ${amount} has been credited to your account. It will appear on your next invoice within ${words} (${days}) business days.`,
    `The duplicate ${amount} has been credited to your account and shows on your next invoice within ${days} business days, depending on when your invoice is issued.`,
  ];
  it.each(correct)('credits both details in: %s', (reply) => {
    expect(covered(task, reply, 4)).toEqual(['credit_amount', 'credit_window']);
  });
  it('version 3 missed a detail in each', () => {
    expect(correct.filter((reply) => covered(task, reply, 3).length === 2)).toEqual([]);
  });

  const denied = [
    `We have not credited ${amount} to your account; it will not appear on your next invoice within ${days} business days.`,
    `The ${amount} may be credited to your account, depending on a review, and would then show within ${days} business days.`,
    `It will appear on your next invoice within ${words} (${days + 1}) business days.`,
  ];
  it.each(denied)('credits nothing in: %s', (reply) => {
    expect(covered(task, reply, 4)).toEqual([]);
  });
});

describe('two of the claim\'s own words joined by "or" name one thing (security, forgotten password)', () => {
  const id = 'security_compromised_account';
  const seed = Array.from({ length: 60 }, (_, s) => s).find((s) => drawn(id, 2, s).answer_key.reply_claims!.some((c) => c.id === 'spam_folder'))!;
  const task = drawn(id, 2, seed);
  const advice = [
    'Do have a look in your spam or junk folder too.',
    'Please take a look in your junk or spam folder as well.',
    'Have a look in the spam or junk folder of that mailbox.',
  ];
  it.each(advice)('credits the advice in: %s', (sentence) => {
    expect(covered(task, `We've sent you a new reset link. ${sentence}`, 4)).toContain('spam_folder');
  });
  it('version 3 read them as two places', () => {
    expect(advice.filter((sentence) => covered(task, `We've sent you a new reset link. ${sentence}`, 3).includes('spam_folder'))).toEqual([]);
  });
});

const securitySeed = (claimId: string, from = 0) =>
  Array.from({ length: 80 }, (_, s) => s + from).find((s) => drawn('security_compromised_account', 2, s).answer_key.reply_claims!.some((c) => c.id === claimId))!;

describe('a negation inside a relative or subordinate clause stays there (security)', () => {
  const reset = drawn('security_compromised_account', 2, securitySeed('spam_folder'));
  const advice = [
    'If it is not in your inbox, look in your spam folder.',
    "If it's not there after a few minutes, please check your spam folder.",
    "Should the email not arrive, check your spam folder.",
    'We would recommend checking your spam folder should the message not appear in your inbox.',
    "As it hasn't reached your inbox, please look in your spam folder.",
  ];
  it.each(advice)('credits the advice in: %s', (sentence) => {
    expect(covered(reset, `We've sent you a new reset link. ${sentence}`, 4)).toContain('spam_folder');
  });
  it('version 3 read most of them as denied', () => {
    expect(advice.filter((sentence) => !covered(reset, `We've sent you a new reset link. ${sentence}`, 3).includes('spam_folder')).length).toBeGreaterThanOrEqual(2);
  });
  const denied = ["Please don't check your spam folder.", 'There is no need to look in your spam folder.', "You won't need to check the spam folder."];
  it.each(denied)('still reads a denial of the advice itself in: %s', (sentence) => {
    expect(covered(reset, `We've sent you a new reset link. ${sentence}`, 4)).not.toContain('spam_folder');
  });

  const review = drawn('security_compromised_account', 2, securitySeed('sign_out_unrecognised'));
  const signOut = [
    "Each session has a Sign out button, so if you see one you don't recognise, end it straight away.",
    "Every session has its own Sign out button: sign out any you don't recognise.",
    'Use the Sign out button on any session not previously seen on your account.',
    "Please sign out every session your team hasn't opened itself.",
  ];
  it.each(signOut)('credits signing out unrecognised sessions in: %s', (sentence) => {
    expect(covered(review, `Your active sessions are listed under Settings > Security. ${sentence}`, 4)).toContain('sign_out_unrecognised');
  });
  const offered = [
    "Would you like me to explain how to sign out any session you don't recognise?",
    "Perhaps you could sign out ones you don't know.",
    "Shall I walk you through signing out any session you don't recognise?",
  ];
  it.each(offered)('credits no advice only offered or hedged: %s', (sentence) => {
    expect(covered(review, sentence, 4)).not.toContain('sign_out_unrecognised');
  });
});

describe('durations in words and abbreviations, synonyms of looking and signing out (security)', () => {
  const reset = drawn('security_compromised_account', 2, securitySeed('link_expiry'));
  const minutes = claim(reset, 'link_expiry').min;
  const spelled: Record<number, string[]> = {
    15: ['a quarter of an hour', 'quarter of an hour', '15 mins'],
    30: ['half an hour', '30 mins', '30 min'],
    60: ['an hour', '60 mins', '1 hour'],
  };
  it.each(spelled[minutes] ?? [])('credits the link lifetime given as %s', (words) => {
    expect(covered(reset, `We've sent you a new reset link. It only lasts ${words}, so open it soon.`, 4)).toContain('link_expiry');
  });
  const looking = ['Please peek in your spam folder too.', 'Look in your spam/junk folder.', 'Please look in your spam folder.', 'Glance in your junk folder as well.'];
  it.each(looking)('credits the spam-folder advice in: %s', (sentence) => {
    expect(covered(reset, `We've sent you a new reset link. ${sentence}`, 4)).toContain('spam_folder');
  });
  it('a slash between two rival values still names two', () => {
    const other = minutes === 15 ? 30 : 15;
    expect(covered(reset, `We've sent you a new reset link. It expires in ${minutes}/${other} minutes.`, 4)).not.toContain('link_expiry');
  });
});

describe('what an aside or a restatement names is the object acted on (security, takeover with keys)', () => {
  const task = drawn('security_compromised_account', 2, securitySeed('named_keys_revoked'));
  const keys = (task.answer_key.reply_claims!.find((c) => c.id === 'named_keys_revoked') as unknown as { objects: string[] }).objects;
  const names = keys.map((k) => `'${k}'`).join(' and ');
  const hours = Number(/last (\d+) hours/.exec(task.answer_key.reply_claims!.find((c) => c.id === 'api_keys_revoked')!.description)![1]);
  const correct = [
    `We have revoked all API keys created in the last ${hours} hours, which means ${names}.`,
    `Every API key created in the past ${hours} hours has been revoked; in your case this is ${names}.`,
    `The API keys - ${names}, the only ones created in the last ${hours} hours - have been revoked.`,
    `Account locked, all sessions signed out, keys from the past ${hours} h (${keys.join(', ')}) revoked.`,
  ];
  it.each(correct)('credits both key details in: %s', (sentence) => {
    expect(covered(task, sentence, 4)).toEqual(expect.arrayContaining(['api_keys_revoked', 'named_keys_revoked']));
  });
  it('version 3 missed the names in most of them', () => {
    expect(correct.filter((sentence) => covered(task, sentence, 3).includes('named_keys_revoked')).length).toBeLessThanOrEqual(1);
  });
  const denied = [
    `We have not revoked the API keys; in your case this is ${names}.`,
    `We could revoke the API keys created in the last ${hours} hours, which means ${names}.`,
    `The API keys - ${names} - will be revoked once you confirm.`,
  ];
  it.each(denied)('credits no named key in: %s', (sentence) => {
    expect(covered(task, sentence, 4)).not.toContain('named_keys_revoked');
  });
});

describe('an aside in brackets stands as its clause does; what happens as a rule is no case; an offer waits (logistics g3)', () => {
  const task = drawn('logistics_missing_order_vip', 3, 3);
  const delivery = longDay(claim(task, 'delivery_date').date);
  const credit = usd(claim(task, 'shipping_credit').amount);
  const telling = [
    `Before I can release the replacement by overnight priority courier (delivery ${delivery}) and post the ${credit} credit, please send me your card number.`,
    `Please send me your account password; as soon as I have it, the overnight priority replacement (${delivery}, before noon) and the ${credit} credit will be set up.`,
    `Please reply with the verification code; the overnight priority replacement (${delivery}) and the ${credit} credit will be processed once we have it.`,
    `As soon as the carrier's claim is settled we'll ship a replacement by overnight priority courier and apply the ${credit} shipping credit.`,
    `Just reply 'yes' and I'll send a replacement by overnight priority courier with a ${credit} shipping credit.`,
    `Such replacements generally go by overnight priority courier, and credits of ${credit} are usually applied.`,
  ];
  it.each(telling)('credits nothing in: %s', (reply) => {
    expect(covered(task, reply, 4)).toEqual([]);
  });
  it('version 3 credited most of them', () => {
    expect(telling.filter((reply) => covered(task, reply, 3).length > 0).length).toBeGreaterThanOrEqual(4);
  });
  const correct = [
    `We have dispatched a replacement by overnight priority courier (delivery ${delivery}, before 12:00) and applied a ${credit} shipping credit.`,
    `Deliveries usually take two days, but we've sent your replacement by overnight priority courier, arriving on ${delivery} before noon.`,
  ];
  it.each(correct)('credits the delivery in: %s', (reply) => {
    expect(covered(task, reply, 4)).toEqual(expect.arrayContaining(['delivery_date', 'overnight_courier']));
  });
});

describe('a trailing condition holds over the clause it follows only (security, forgotten password)', () => {
  const reset = drawn('security_compromised_account', 2, securitySeed('link_expiry'));
  const minutes = claim(reset, 'link_expiry').min;
  const said = [
    `It expires in ${minutes} minutes, and please check your spam folder if you can't see it.`,
    `It expires in ${minutes} minutes (so open it soon), and check your spam folder if it doesn't show up.`,
    `The link is valid for ${minutes} minutes; look in your spam folder if it isn't in your inbox.`,
  ];
  it.each(said)('credits the lifetime and the advice in: %s', (sentence) => {
    expect(covered(reset, `We've sent you a new reset link. ${sentence}`, 4)).toEqual(expect.arrayContaining(['link_expiry', 'spam_folder']));
  });
  it('a condition on the lifetime itself still makes it hypothetical', () => {
    expect(covered(reset, `We've sent you a new reset link, which expires in ${minutes} minutes if you don't open it.`, 4)).not.toContain('link_expiry');
  });
});

describe('what goes on from a request waits with it; a request, a kind of thing or the customer\'s own act is no done act (billing, annual plan)', () => {
  const task = drawn('billing_duplicate_charge', 2, 1);
  const amount = usd(claim(task, 'refund_amount').amount);
  const { min, max } = claim(task, 'settlement_window');
  const window = `${min}-${max} business days`;
  const telling = [
    `Please confirm the full card number and expiry date of the card you'd like the ${amount} sent back to, and we'll get the refund moving - it then settles within ${window}.`,
    `To refund it I need to confirm the account holder - please reply with your password. The refund then settles within ${window}.`,
    `Once you send us a screenshot of your statement showing both ${amount} charges, we'll look into it.`,
    `A refund request for ${amount} has been raised and is awaiting approval from a billing manager.`,
    `Our usual practice is to refund the duplicate, and such refunds generally settle within ${window}.`,
    `Please send me your login password, and once I've verified the account the ${amount} refund will be issued and settle within ${window}.`,
    `You can request the ${amount} refund yourself from the billing page.`,
  ];
  it.each(telling)('credits nothing in: %s', (reply) => {
    expect(covered(task, reply, 4)).toEqual([]);
  });
  it('version 3 credited most of them', () => {
    expect(telling.filter((reply) => covered(task, reply, 3).length > 0).length).toBeGreaterThanOrEqual(4);
  });
  const correct = [
    `We've refunded the duplicate ${amount} to your card. It then settles within ${window}.`,
    `The duplicate was caused by a retry after a gateway timeout, so I've refunded ${amount} to your card; it settles within ${window}.`,
    `We've refunded the duplicate ${amount} to your card; your bank then takes ${window} to settle it.`,
  ];
  it.each(correct)('credits both details in: %s', (reply) => {
    expect(covered(task, reply, 4)).toEqual(['refund_amount', 'settlement_window']);
  });
});

describe('advice is the customer\'s to follow: our own act is not it (security, a sign-in to review)', () => {
  const review = drawn('security_compromised_account', 2, securitySeed('sign_out_unrecognised'));
  it.each([
    "To be safe we've locked your account, signed out all sessions and revoked your recent API keys.",
    'We have signed out every session on your account.',
  ])('credits no advice in: %s', (reply) => {
    expect(covered(review, reply, 4)).not.toContain('sign_out_unrecognised');
  });
  it('still credits the advice given', () => {
    expect(covered(review, "Your sessions are under Settings > Security; sign out any session you don't recognise.", 4)).toContain('sign_out_unrecognised');
  });
});
