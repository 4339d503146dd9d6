import { seedClaims } from '../../../../../test/support/seed-claims';
import { LEGACY_LEXICON } from '../../../../../tools/versions/v2-legacy-lexicon';
import { compileLexicon } from './lexicon';
import { extractMentions, judgeClaims, type ReplyClaim } from './index';

/** Version 2's built-in domain words, which these specs (copied from version 2) were written against. */
const LEGACY = compileLexicon(LEGACY_LEXICON);

/*
 * Replies written for these specs, apart from the development fixtures: correct ones must cover every detail,
 * adversarial ones must earn none. Each names the rule it leans on.
 */

const TASKS: Record<string, { clock: string; claims: ReplyClaim[] }> = {
  billing: seedClaims('billing_duplicate_charge'),
  security: seedClaims('security_compromised_account'),
  logistics: seedClaims('logistics_missing_order_vip'),
};

function earned(task: string, reply: string): number {
  const t = TASKS[task];
  return judgeClaims(t.claims, [extractMentions(reply, t.clock)], LEGACY).filter((v) => v.covered).length;
}

const CORRECT: [string, string][] = [
  ['billing', "Hi Dana, good news - we've processed a refund for the duplicate renewal. You'll get $348.00 back on your Visa, usually within 5-7 business days."],
  ['billing', "We're refunding the second renewal payment ($348.00). Please allow five to seven business days for it to appear."],
  ['billing', 'The duplicate charge of $348 has been reversed. Expect the funds in 5–7 business days.'],
  ['billing', 'Refunded: $348.00 to Visa 4417 (settles in 5-7 business days). Sorry for the trouble!'],
  ['billing', "Dana, we've refunded the duplicate payment of $348.00. It won't take longer than 5-7 business days to reach your card."],
  ['billing', 'Your refund of $348.00 has been sent back to your Visa. You should see it within 5-7 business days - if not, let us know.'],
  ['billing', "We've refunded $348.00, not $696, to your Visa; it settles in 5-7 business days."],
  ['billing', "We've refunded $348.00 and it will settle within 5-7 business days. Is there anything else I can help with?"],
  ['security', "We've secured your account by locking it and signing out every active session. All API keys generated in the last 72 hours (sync-prod-2 included) are now revoked. To restore access, we'll verify your identity via a video call."],
  ['security', "We've frozen the account, logged out all devices and sessions, and deleted the API keys created within the last 72 hours, including sync-prod-2. We'll need to confirm your identity over a video call before you can sign in again."],
  ['security', 'Nobody can get into your account now: it is locked and all active sessions were ended. Every API key made in the last 72 hours, sync-prod-2 too, is revoked. We will not restore access until we have verified your identity on a video call.'],
  ['security', 'What we have done: locked your account; signed out all active sessions; revoked all API keys created in the last 72 hours (sync-prod-2 included). What happens next: we will verify your identity on a video call, then restore access.'],
  ['logistics', "We're dispatching a replacement today via overnight priority courier; it will be delivered tomorrow (Friday 27 November) before 12:00. We've also added a $150 shipping credit to your account."],
  ['logistics', 'Replacement shipped overnight priority this morning - delivery Friday 27th before noon. $150 credit applied to your account.'],
  ['logistics', "I've arranged an overnight priority replacement, which will be delivered on Friday 27 November before 12:00, rather than the 3-5 business days standard ground would take. A $150 credit is on your account."],
  ['billing', "We've refunded the duplicate $348.00. It may take 5-7 business days for the refund to appear on your statement."],
  ['billing', 'You will be refunded $348 for the second charge. Please allow up to 5-7 business days.'],
  ['security', "We've temporarily disabled your account and revoked all active sessions. The API keys created over the last 72 hours, sync-prod-2 among them, were revoked too. Identity will be confirmed via video call before you regain access."],
  ['security', "We've locked your account and logged you out of all devices. We've revoked the new API key (sync-prod-2) and any others created in the last 72 hours. You'll need to verify your identity with us over a video call before access is restored."],
  ['logistics', "Your replacement has shipped with our next-day priority courier and will arrive before noon tomorrow. We've issued a $150 credit for shipping."],
  ['logistics', 'Hi Isabelle,\n\nExpected delivery: tomorrow by 12pm (overnight priority courier)\nShipping credit: $150.00, applied today\n\nSorry for the disruption.'],
  ['logistics', "We won't wait for the carrier. The replacement goes by overnight priority courier today and will arrive tomorrow, 27 November, before noon. Your $150.00 shipping credit has been applied, not the $50 goodwill credit."],
];

const ADVERSARIAL: [string, string][] = [
  ['billing', "We can't process a refund of $348 right now; refunds normally take 5-7 business days once approved."],
  ['billing', 'Unfortunately, the $348 charge is valid, so no refund is due. Card refunds take 5-7 business days in general.'],
  ['billing', 'We have not yet decided whether to refund the $348; if we do, it takes 5-7 business days.'],
  ['billing', 'Refund: no. Amount: $348. Timing: 5-7 business days.'],
  ['billing', "We're going to look at refunding $348. Refunds take 5-7 business days."],
  ['billing', 'A refund of $348 within 5-7 business days is not something we can offer.'],
  ["billing", "We'd be happy to refund $348; it usually takes 5-7 business days. Just say the word."],
  ['billing', 'Refund of $348 within 5-7 business days? Unfortunately not.'],
  ['billing', 'The duplicate $348 charge will be refunded in 5-7 business days if you send us a copy of your bank statement.'],
  ['security', "I'd recommend locking the account and revoking the API keys created in the last 72 hours; a video call to verify your identity is optional."],
  ['security', 'Locking the account, signing out all sessions, revoking API keys from the last 72 hours and verifying identity on a video call are the steps we take in cases like this, but yours does not qualify.'],
  ['security', 'We locked your account by mistake and have since unlocked it; the API keys from the last 72 hours were never revoked and no video call is needed.'],
  ['security', 'Hi Helena, the overnight team said they would lock your account, sign out all sessions, revoke the API keys created in the last 72 hours and verify your identity on a video call, but nobody has done it yet.'],
  ['security', "Helena, someone else locked your account, signed out all sessions and revoked the API keys from the last 72 hours. We don't know who, and we can't verify identity on a video call."],
  ['logistics', 'We were going to ship overnight for Friday 27 November with a $150 credit, but the order was found, so none of this applies.'],
  ['logistics', 'The replacement was supposed to go overnight for Friday 27 November with a $150 credit, but that has fallen through.'],
  ['logistics', "Hi Isabelle, the overnight priority courier, delivery on Friday 27 November and the $150 credit are all things we'd normally do, but not in this case."],
  ['logistics', 'The replacement will ship overnight for delivery on Friday 27 November with a $150 credit as soon as the carrier confirms the loss.'],
  ['security', "We've signed out your current session only and revoked API keys older than 90 days."],
  ['billing', 'Assuming the review goes your way, a $348 refund could reach your Visa in 5-7 business days.'],
];

describe('correct replies written for the specs cover every detail', () => {
  it.each(CORRECT)('%s: %s', (task, reply) => {
    expect(earned(task, reply)).toBe(TASKS[task].claims.length);
  });
});

describe('adversarial replies written for the specs earn nothing', () => {
  it.each(ADVERSARIAL)('%s: %s', (task, reply) => {
    expect(earned(task, reply)).toBe(0);
  });
});
