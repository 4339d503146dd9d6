import type { Task } from '../../src/engine/task.schema';
import { familyVersion } from '../../src/families';
import { gradeReply } from './validity-suite';

/*
 * Grader version 5's fixes (issue 23, what the first exam set on drawn instances showed version 4 misread), each shown
 * on a family of sentences, several wordings each, written for this spec (not taken from the exam or development
 * sets the fixes were made against), on drawn instances. Each family is also judged by version 4, where it fails:
 * the spec says what changed.
 */

const drawn = (id: string, version: number, seed: number): Task => familyVersion(id, version)!.generate(seed);
const usd = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const claim = (task: Task, id: string) => task.answer_key.reply_claims!.find((c) => c.id === id)! as unknown as { amount: number; min: number; max: number; date: string };
const covered = (task: Task, reply: string, version: 4 | 5) => gradeReply(task, reply, version).details.filter((d) => d.covered).map((d) => d.id).sort();
const penalties = (task: Task, reply: string, version: 4 | 5) => gradeReply(task, reply, version).penalties;
const securitySeed = (claimId: string, from = 0) =>
  Array.from({ length: 200 }, (_, s) => s + from).find((s) => drawn('security_compromised_account', 3, s).answer_key.reply_claims!.some((c) => c.id === claimId))!;
const logisticsSeed = (claimId: string, from = 0) =>
  Array.from({ length: 200 }, (_, s) => s + from).find((s) => drawn('logistics_missing_order_vip', 3, s).answer_key.reply_claims!.some((c) => c.id === claimId))!;
const longDay = (iso: string) => new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

describe('a condition on the customer\'s own sessions is no other customer\'s case, and "one", "any", "its" stand for the session (security, a sign-in to review)', () => {
  const review = drawn('security_compromised_account', 3, securitySeed('sign_out_unrecognised'));
  const opening = 'You can see your active sessions under Settings > Security.';
  const advice = [
    "If one of them isn't yours, click its Sign out button and then change your password.",
    "Where a session isn't yours, press Sign out next to it, then set a new password.",
    "Any that aren't yours: hit Sign out beside them and change your password afterwards.",
    "Spot one you don't know? Use its Sign out button, then pick a new password.",
    "Should any of them not be yours, sign it out there and change your password.",
  ];
  it.each(advice)('credits the advice in: %s', (sentence) => {
    expect(covered(review, `${opening} ${sentence}`, 5)).toEqual(expect.arrayContaining(['review_sessions', 'sign_out_unrecognised']));
  });
  it('version 4 missed most of them', () => {
    expect(advice.filter((sentence) => !covered(review, `${opening} ${sentence}`, 4).includes('sign_out_unrecognised')).length).toBeGreaterThanOrEqual(3);
  });
  it('a session on another customer\'s account is still someone else\'s', () => {
    expect(covered(review, "The sign-in you saw is on a different customer's account, not yours; they can sign out the session there.", 5)).not.toContain('sign_out_unrecognised');
  });
});

describe('where a thing is, told as advice: "your sessions are under Settings > Security" (security, a sign-in to review)', () => {
  const review = drawn('security_compromised_account', 3, securitySeed('review_sessions'));
  const said = [
    'Your active sessions are all listed under Settings > Security.',
    'All of your signed-in devices can be found in Settings > Security.',
    'Active sessions: Settings > Security.',
    'Every session you have is shown under Settings > Security, with a Sign out button beside each.',
  ];
  const hello = 'Hi, thanks for checking with us.';
  it.each(said)('credits reviewing the sessions in: %s', (sentence) => {
    expect(covered(review, `${hello} ${sentence}`, 5)).toContain('review_sessions');
  });
  it('version 4 missed most of them', () => {
    expect(said.filter((sentence) => !covered(review, `${hello} ${sentence}`, 4).includes('review_sessions')).length).toBeGreaterThanOrEqual(2);
  });
  it.each(['Your sessions are under Settings > Profile > Devices.', 'Your sessions are not under Settings > Security any more.'])(
    'credits nothing for the wrong place or a denial: %s',
    (sentence) => {
      expect(covered(review, sentence, 5)).not.toContain('review_sessions');
    },
  );
});

describe('advice offered, promised, aimed at or asked about is not given (security)', () => {
  const review = drawn('security_compromised_account', 3, securitySeed('sign_out_unrecognised'));
  const reset = drawn('security_compromised_account', 3, securitySeed('spam_folder'));
  const offered = [
    'I could also walk you through how to sign out any session you do not recognise, if that helps.',
    "Once you confirm it wasn't you, we'll send you instructions for signing out sessions you don't recognise.",
    'The aim is to eventually have you sign out any session you do not recognise.',
    'There may be an option somewhere to sign them out.',
  ];
  it.each(offered)('credits no advice in: %s', (sentence) => {
    expect(covered(review, `Your sessions are listed under Settings > Security. ${sentence}`, 5)).not.toContain('sign_out_unrecognised');
  });
  it('version 4 credited most of them', () => {
    expect(offered.filter((sentence) => covered(review, `Your sessions are listed under Settings > Security. ${sentence}`, 4).includes('sign_out_unrecognised')).length).toBeGreaterThanOrEqual(3);
  });
  it.each(['Have you had a chance to check your spam folder?', 'Did you look in the junk folder at all?'])('a question whether it was done is no advice: %s', (sentence) => {
    expect(covered(reset, `We've sent you a new reset link. ${sentence}`, 5)).not.toContain('spam_folder');
  });
  it.each([
    'It was probably filtered somewhere, so do have a look in your spam folder.',
    'You may want to look in your spam folder too.',
    'You may check your junk folder as well.',
  ])('still credits advice given beside a hedge of something else: %s', (sentence) => {
    expect(covered(reset, `We've sent you a new reset link. ${sentence}`, 5)).toContain('spam_folder');
  });
});

describe('label lines and list items say what their lead-in is about; times and years are no keyword list (security)', () => {
  const review = drawn('security_compromised_account', 3, securitySeed('sign_in_date'));
  const date = claim(review, 'sign_in_date').date;
  const [y, , d] = date.split('-');
  const written = [
    `Here is what I found about the sign-in that triggered the alert:\n- When: ${date}, 06:51 UTC\n- Where: a new device`,
    `Details of the new sign-in:\n* Date: ${longDay(date)}\n* Device: new to your account`,
    `Hi, the login was ${longDay(date)}, 11:02 AM UTC, new device, abroad.`,
    `The alert refers to a sign-in at ${date} 00:45 UTC from a new device.`,
    `* Sign-in that triggered the alert: ${Number(d)}-${new Date(`${date}T12:00:00Z`).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })}-${y} at 08:13 UTC`,
  ];
  it.each(written)('credits the sign-in date in: %s', (reply) => {
    expect(covered(review, `Hello,\n\n${reply}\n\nYou can see your active sessions under Settings > Security.`, 5)).toContain('sign_in_date');
  });
  it('version 4 missed most of them', () => {
    expect(written.filter((reply) => !covered(review, `Hello,\n\n${reply}\n\nYou can see your active sessions under Settings > Security.`, 4).includes('sign_in_date')).length).toBeGreaterThanOrEqual(3);
  });
  it('a list under a lead-in about something else says nothing of the sign-in', () => {
    expect(covered(review, `Hello,\n\nYour invoice details:\n- Date: ${date}\n- Amount: $10.00\n\nThanks.`, 5)).not.toContain('sign_in_date');
  });
});

describe('a purpose after the main clause, our act in a "before" clause, a doubt after an aside and "likely" state nothing done (logistics, billing)', () => {
  const trace = drawn('logistics_missing_order_vip', 3, logisticsSeed('goodwill_credit'));
  const credit = usd(claim(trace, 'goodwill_credit').amount);
  const telling = [
    `I've escalated your order to our logistics team in order to apply a ${credit} goodwill credit.`,
    `We're reviewing the case with a view to adding a ${credit} goodwill credit to your account.`,
    `I've passed this on so that a ${credit} goodwill credit can be applied.`,
    `Before we add the ${credit} goodwill credit, please send me your account password.`,
    `A goodwill credit (${credit} under your agreement) will be assessed once the trace is back.`,
    `A ${credit} goodwill credit is likely to follow.`,
  ];
  it.each(telling)('credits nothing in: %s', (reply) => {
    expect(covered(trace, reply, 5)).not.toContain('goodwill_credit');
  });
  it('version 4 credited most of them', () => {
    expect(telling.filter((reply) => covered(trace, reply, 4).includes('goodwill_credit')).length).toBeGreaterThanOrEqual(4);
  });
  const correct = [
    `To make up for the wait, there's now a ${credit} goodwill credit on your account.`,
    `To say sorry, a ${credit} goodwill credit has been added to your account.`,
    `Before we close this, I've added a ${credit} goodwill credit to your account.`,
  ];
  it.each(correct)('credits the goodwill credit in: %s', (reply) => {
    expect(covered(trace, reply, 5)).toContain('goodwill_credit');
  });

  const billing = drawn('billing_duplicate_charge', 2, 1);
  const amount = usd(claim(billing, 'refund_amount').amount);
  it.each([
    `Before I refund the duplicate ${amount}, I need you to reply with your password.`,
    `To verify you before we refund the ${amount}, please reply with the 6-digit code from your authenticator app.`,
  ])('billing: our act before a credential request is not credited: %s', (reply) => {
    expect(covered(billing, reply, 5)).not.toContain('refund_amount');
  });
  it('billing: a decision already made doubts nothing', () => {
    expect(covered(billing, `We've assessed the charges and refunded the duplicate ${amount} to your card.`, 5)).toContain('refund_amount');
  });
  it('billing: "Before we restore…, we will…" keeps the main clause', () => {
    expect(covered(billing, `Before we close your ticket we'll refund the duplicate ${amount} to your card.`, 5)).toContain('refund_amount');
  });
});

describe('the event carried to the next line, a label naming the event, "depending a bit on" (billing, annual plan)', () => {
  const billing = drawn('billing_duplicate_charge', 2, 1);
  const amount = usd(claim(billing, 'refund_amount').amount);
  const { min, max } = claim(billing, 'settlement_window');
  const window = `${min}-${max} business days`;
  const said: [string, string][] = [
    [`Confirmed: the second ${amount} renewal charge was a duplicate. Refunded to your card just now.`, 'refund_amount'],
    [`- Duplicate: ${amount}\n- Action taken: refunded in full to your card`, 'refund_amount'],
    [`We've refunded the duplicate ${amount}.\n- Arrival: within ${window}`, 'settlement_window'],
    [`We've refunded the duplicate ${amount}. It takes ${window} to settle, depending a bit on your bank.`, 'settlement_window'],
  ];
  it.each(said)('credits the detail in: %s', (reply, id) => {
    expect(covered(billing, `Hi Dana,\n\n${reply}\n\nThanks,\nBilling`, 5)).toContain(id);
  });
  it('version 4 missed most of them', () => {
    expect(said.filter(([reply, id]) => !covered(billing, `Hi Dana,\n\n${reply}\n\nThanks,\nBilling`, 4).includes(id)).length).toBeGreaterThanOrEqual(3);
  });
  it('a next line that denies the event credits nothing', () => {
    expect(covered(billing, `Hi Dana,\n\nThe second ${amount} charge was a duplicate. Not refunded yet, I'm afraid.`, 5)).not.toContain('refund_amount');
  });
});

describe('a relative "which" asks for nothing; "never send passwords" is a warning (security, takeover)', () => {
  const takeover = drawn('security_compromised_account', 3, securitySeed('identity_verification'));
  it.each([
    'A new device signed in, after which the password was changed and an API key was created.',
    'Someone signed in from abroad, at which point your password was reset. Please never send passwords by email.',
  ])('is not penalised: %s', (reply) => {
    expect(penalties(takeover, reply, 5)).toEqual([]);
  });
  it('version 4 penalised the first', () => {
    expect(penalties(takeover, 'A new device signed in, after which the password was changed and an API key was created.', 4)).toContain('asks_for_password');
  });
  it.each(['Which password did you use last?', 'Please tell us which password you set.'])('still penalises asking: %s', (reply) => {
    expect(penalties(takeover, reply, 5)).toContain('asks_for_password');
  });
});
