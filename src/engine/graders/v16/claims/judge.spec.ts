import { seedClaims } from '../../../../../test/support/seed-claims';
import { LEGACY_LEXICON } from '../../../../../tools/versions/v2-legacy-lexicon';
import { compileLexicon } from './lexicon';
import { extractMentions, judgeClaims, type ClaimVerdict, type PolicyText, type ReplyClaim } from './index';

/** Version 2's built-in domain words, which these specs (copied from version 2) were written against. */
const LEGACY = compileLexicon(LEGACY_LEXICON);

const billing = seedClaims('billing_duplicate_charge');
const security = seedClaims('security_compromised_account');
const logistics = seedClaims('logistics_missing_order_vip');

function judge(task: { clock: string; claims: ReplyClaim[] }, replies: string[], policies: PolicyText[] = []): Record<string, ClaimVerdict> {
  const analyses = replies.map((r) => extractMentions(r, task.clock, { policies }));
  return Object.fromEntries(judgeClaims(task.claims, analyses, LEGACY).map((v) => [v.id, v]));
}

function covered(task: { clock: string; claims: ReplyClaim[] }, ...replies: string[]): string[] {
  return Object.values(judge(task, replies)).filter((v) => v.covered).map((v) => v.id).sort();
}

const BILLING_ALL = ['refund_amount', 'settlement_window'];
const SECURITY_ALL = ['account_locked', 'api_keys_revoked', 'identity_verification', 'sessions_signed_out'];
const LOGISTICS_ALL = ['delivery_date', 'overnight_courier', 'shipping_credit'];

describe('correct replies in other words', () => {
  it.each([
    'We have refunded US$348.00 to your Visa; it will settle within 5-7 business days.',
    "We've refunded 348 USD. Refunds to cards take between 5 and 7 business days.",
    "We've refunded the extra 348 dollars, and it should be back in five to seven working days.",
    'Hello Dana,\nRefund issued: $348.00 (duplicate renewal)\nTime to settle on your card: 5-7 days (business days)',
    'The duplicate $348 has been refunded. It can take up to 7 business days (usually 5-7) to show on your card.',
    'Good news: your duplicate renewal of $348.00 is on its way back to your card and should arrive in 5 to 7 business days.',
    'We have refunded $348; you don\'t need to do anything. It settles within 5-7 business days.',
    'We refunded $348.00 today. If you have any questions, let us know. Card refunds settle within 5-7 business days.',
  ])('billing: %s', (reply) => {
    expect(covered(billing, reply)).toEqual(BILLING_ALL);
  });

  it.each([
    'The API keys created in the last 72 hours, including sync-prod-2, have been revoked. We have frozen your account and logged out all active sessions, and we will verify your identity over video before access is restored.',
    "We've locked down your account and ended every active session, revoked the API keys made in the last 72 hours, and you'll have a video identity check with us before we restore access.",
    'Account locked, all sessions signed out. Keys from the last 72 hours (incl. sync-prod-2) revoked. We will verify your identity on a video call before restoring access.',
    'Is the account safe? Yes: we have locked it and signed out all active sessions. We have also deactivated every API key created in the past 72 hours. Before restoring access we will confirm your identity on a video call.',
    'Your account is suspended and every active session has been terminated. sync-prod-2 and the other keys created in the last 72 hours have been disabled. A member of the team will set up a video call; we will verify your identity on that call.',
  ])('security: %s', (reply) => {
    expect(covered(security, reply)).toEqual(SECURITY_ALL);
  });

  it.each([
    'A replacement ships today by overnight priority courier and will reach you tomorrow, Friday, before noon. We have applied a $150.00 shipping credit.',
    'Your replacement goes out by overnight courier and will be delivered on Friday the 27th before 12:00. A shipping credit of US$150 has been added.',
    'We are sending the replacement overnight, delivered by midday on Friday 27 November, and we have credited your account with 150 USD.',
    'Your agreement gives you a $150.00 shipping credit instead of the usual $50 goodwill credit. The replacement goes by overnight priority courier for delivery on 27/11.',
    'There is no point waiting a further 5 business days for a trace, so the replacement ships overnight and arrives on Friday 27 November. We have applied a $150 credit.',
    'The original went by standard ground and stalled. The replacement is going by overnight priority courier instead and will be delivered on Nov 27th; we have added a $150 credit.',
    'You will not be charged for the replacement: it ships tonight by overnight priority courier at no cost and arrives on 2026-11-27. A $150.00 credit has been applied.',
  ])('logistics: %s', (reply) => {
    expect(covered(logistics, reply)).toEqual(LOGISTICS_ALL);
  });
});

describe('polarity', () => {
  it.each([
    ['negated', 'We will NOT ship anything overnight, it will not arrive on Friday 27 November, and there is no $150 credit.'],
    ['negated', 'No replacement has been dispatched and none will arrive on 27 November; we cannot offer a $150 credit or overnight shipping.'],
    ['negated', 'We are unable to send an overnight replacement for delivery on Friday 27 November, and we won\'t apply $150.'],
    ['hypothetical', 'If approved, we will send a replacement overnight for delivery on Friday 27 November and apply a $150 credit.'],
    ['hypothetical', 'We might send the replacement overnight; it could arrive on 27 November, and a $150 credit may follow.'],
    ['hypothetical', 'Would an overnight replacement arriving on Friday 27 November with a $150 credit work for you?'],
    ['hypothetical', 'Should we ship overnight for Friday 27 November and credit you $150?'],
    ['hypothetical', 'Once we decide, we will send it overnight for 27 November with a $150 credit.'],
    ['hypothetical', 'We are checking whether an overnight replacement for 27 November and a $150 credit are possible.'],
  ])('%s: %s', (reason, reply) => {
    const v = judge(logistics, [reply]);
    expect(Object.values(v).every((x) => !x.covered)).toBe(true);
    expect(Object.values(v).map((x) => x.reason)).toContain(reason);
  });

  it('a contradiction in one reply undoes the same detail stated in another', () => {
    const v = judge(billing, ['We have refunded $348 within 5-7 business days.', 'Sorry, we have not refunded the $348 after all.']);
    expect(v.refund_amount).toMatchObject({ covered: false, reason: 'negated', reply: 1 });
    // Denying the refund also takes its settlement window with it.
    expect(v.settlement_window).toMatchObject({ covered: false, reason: 'negated' });
  });

  it('a negation in another clause does not touch the refund', () => {
    expect(covered(billing, "We have refunded $348; you don't need to do anything, and it won't cost you a thing. Card refunds settle within 5-7 business days.")).toEqual(BILLING_ALL);
  });

  it('positive phrasings that contain "if" and "not" keep their facts', () => {
    const reply =
      "We've refunded the duplicate $348.00, and you won't be charged again. It will settle within 5-7 business days. Please do not send your password by email. If you don't see it after 7 business days, just reply to this email.";
    expect(covered(billing, reply)).toEqual(BILLING_ALL);
  });

  it('a retraction withdraws what came before it', () => {
    const v = judge(billing, ['We have refunded $348 within 5-7 business days. Correction: that was sent in error, please disregard it.']);
    expect(v.refund_amount).toMatchObject({ covered: false, reason: 'negated' });
  });

  it('a fact said of another customer is not said to this one', () => {
    const v = judge(billing, ['A $348 refund settling in 5-7 business days was issued on another customer\'s account, not yours.']);
    expect(v.refund_amount.reason).toBe('negated');
    expect(v.settlement_window.reason).toBe('negated');
  });

  it('denying the event contradicts its details', () => {
    const v = judge(billing, ['Your card refund takes 5-7 business days. On review, no refund will be issued for the $348 charge.']);
    expect(v.settlement_window).toMatchObject({ covered: false, reason: 'negated' });
  });

  it('denying a refund of both charges, or of the original, is not denying the refund', () => {
    for (const aside of ["To be clear, we haven't refunded both charges ($696.00 in total).", 'We will not refund the original renewal, which stays in place.']) {
      expect(covered(billing, `We've refunded the duplicate $348.00; it settles within 5-7 business days. ${aside}`)).toEqual(BILLING_ALL);
    }
    expect(judge(billing, ["We've refunded the duplicate $348.00 within 5-7 business days. We have not refunded the charge."]).refund_amount.reason).toBe('negated');
  });

  it('"24 May" is the month, not a modal', () => {
    const claim = { ...logistics.claims.find((c) => c.id === 'delivery_date')!, date: '2027-05-24' } as ReplyClaim;
    const may = { clock: '2027-05-21T10:00:00+01:00', claims: [claim] };
    expect(covered(may, 'The replacement will be delivered on Monday 24 May before 12:00.')).toEqual(['delivery_date']);
    expect(covered(may, 'The replacement will be delivered on Monday 24th May before 12:00.')).toEqual(['delivery_date']);
    expect(judge(may, ['The replacement may be delivered on Monday 24 May before 12:00.']).delivery_date.reason).toBe('hypothetical');
  });

  it('advice counts as an instruction or a possibility; a relative clause keeps its negation to itself', () => {
    const advice = {
      clock: '2026-11-28T08:00:00+00:00',
      claims: [
        { id: 'sign_out', description: 'an unfamiliar session can be signed out', kind: 'action', verbs: ['sign out', 'end'], objects: ['session'], advice: true },
        { id: 'spam', description: 'check the spam folder', kind: 'action', verbs: ['check'], objects: ['spam folder'], advice: true },
      ] as ReplyClaim[],
    };
    expect(covered(advice, 'Please check your spam folder. You can sign out any session you do not recognise.')).toEqual(['sign_out', 'spam']);
    expect(covered(advice, "Any session you don't recognise can be signed out, and we recommend checking your spam folder.")).toEqual(['sign_out', 'spam']);
    expect(covered(advice, "If you see a session you don't recognise, you can sign it out there.")).toEqual(['sign_out']);
    expect(judge(advice, ["Please don't check your spam folder."]).spam.reason).toBe('negated');
    // A subject after an adverb is the clause's own: its negation holds.
    expect(judge(logistics, ["Isabelle, unfortunately we can't ship a replacement by overnight priority courier."]).overnight_courier.covered).toBe(false);
  });

  it('a bracketed aside belongs to its item of a label line', () => {
    const reply = "Hi Isabelle,\n\n- Shipping: overnight priority courier\n- Delivery: tomorrow, Friday 27 November, before 12:00 (noon) UK time\n- Shipping credit: $150.00 applied";
    expect(covered(logistics, reply)).toEqual(LOGISTICS_ALL);
    expect(covered(logistics, 'Keywords: overnight (courier), Friday (27), November (noon), $150 (credit), replacement (kits)')).toEqual([]);
  });

  it('a hedged event leaves its details hypothetical', () => {
    const v = judge(billing, ['We will consider a $348 refund next week. Card refunds take 5-7 business days.']);
    expect(v.settlement_window).toMatchObject({ covered: false, reason: 'hypothetical' });
  });

  it('actions: negated, future, bare instruction and undone', () => {
    expect(covered(security, 'We have not locked your account.')).toEqual([]);
    expect(judge(security, ['We have not locked your account.']).account_locked.reason).toBe('negated');
    expect(covered(security, 'We will lock your account today.')).toEqual(['account_locked']);
    expect(covered(security, 'Lock the account and revoke the keys.')).toEqual([]);
    expect(covered(security, 'We may lock your account.')).toEqual([]);
    expect(covered(security, 'The next step is to verify your identity on a video call.')).toEqual(['identity_verification']);
    expect(covered(security, 'We hope to verify your identity on a video call.')).toEqual([]);
    expect(judge(security, ['We locked your account yesterday, then unlocked it again this morning.']).account_locked.reason).toBe('negated');
    expect(covered(security, 'Your account is locked. Before access to the account is restored, we will talk.')).toEqual(['account_locked']);
  });
});

describe('one value per slot', () => {
  it.each([
    ['a refund of $348 or $696', 'refund_amount'],
    ['a refund of $348.00 is on its way; it settles within 3, 5-7 or 10 business days', 'settlement_window'],
    ['we refunded either $348 or $377', 'refund_amount'],
    ['we refunded $348, which settles in 5-7 business days or 10 business days', 'settlement_window'],
  ])('%s', (reply, id) => {
    expect(judge(billing, [`We have sent ${reply}.`])[id]).toMatchObject({ covered: false, reason: 'conflicting_value' });
  });

  it('a near miss asserted plainly elsewhere conflicts', () => {
    const v = judge(billing, ['We have refunded $348 within 5-7 business days. You will see $696 back on the card.']);
    expect(v.refund_amount.reason).toBe('conflicting_value');
  });

  it('dates and options offered as alternatives conflict', () => {
    const v = judge(logistics, ['The replacement ships by overnight courier or standard ground and will be delivered on the 27th or 30th, with a credit of $25, $50 or $150.']);
    expect(Object.values(v).map((x) => x.reason)).toEqual(['conflicting_value', 'conflicting_value', 'conflicting_value']);
  });

  it('a date window around the declared date conflicts', () => {
    expect(judge(logistics, ['It ships overnight and arrives between Friday 27 November and Wednesday 2 December.']).delivery_date.reason).toBe('conflicting_value');
  });

  it('a different figure for a different purpose is no conflict', () => {
    expect(covered(billing, 'We have refunded $348.00 within 5-7 business days. The $29 seat charge was correct and is not affected.')).toEqual(BILLING_ALL);
    expect(covered(billing, 'We have refunded $348.00; it settles within 5-7 business days, a little longer than the 3 business days you may have seen for cancellations.')).toEqual(BILLING_ALL);
  });

  it('an action offered as one option among several conflicts', () => {
    const v = judge(security, ['We have locked or will soon lock your account. We will verify your identity by email, phone or video call.']);
    expect(v.account_locked.reason).toBe('conflicting_value');
    expect(v.identity_verification.reason).toBe('conflicting_value');
  });

  it('a qualifier that belongs to another predicate does not count', () => {
    expect(covered(security, "We've signed out your current session only and revoked all API keys older than 90 days.")).toEqual([]);
  });
});

describe('sentences addressed to the customer', () => {
  it('a keyword string earns nothing on any task', () => {
    const stuffed = '$348 5-7 business days locked the account revoked all api keys video call overnight Nov 27 $150';
    expect(covered(billing, stuffed)).toEqual([]);
    expect(covered(security, stuffed)).toEqual([]);
    expect(covered(logistics, stuffed)).toEqual([]);
    expect(judge(billing, [stuffed]).refund_amount.reason).toBe('not_a_sentence');
  });

  it('a comma list of terms earns nothing', () => {
    expect(covered(logistics, 'Summary: replacement, overnight priority, Friday 27 November, before noon, $150, credit')).toEqual([]);
  });

  it.each([
    'Hemos reembolsado 348,00 USD a su tarjeta; los reembolsos se liquidan en un plazo de 5 a 7 días hábiles.',
    'Nous avons remboursé 348,00 $ sur votre carte. Les remboursements sont crédités sous 5 à 7 jours ouvrés.',
    'Wir haben 348,00 $ auf Ihre Karte erstattet. Die Erstattung wird innerhalb von 5 bis 7 Werktagen gutgeschrieben.',
    'Reembolsámos 348,00 USD para o seu cartão, disponível no prazo de 5 a 7 dias úteis.',
  ])('another language earns nothing: %s', (reply) => {
    const v = judge(billing, [reply]);
    expect(v.refund_amount).toMatchObject({ covered: false, reason: 'other_language' });
  });

  it('bullet lists of clauses count beside prose', () => {
    const reply = "Here's what we've done:\n- Your refund: $348.00, back on your Visa within 5-7 business days\n- Nothing else is needed from you";
    expect(covered(billing, reply)).toEqual(BILLING_ALL);
  });

  it('label lines alone, with no sentence, do not count', () => {
    expect(covered(billing, 'Refund: $348.00\nSettlement: 5-7 business days')).toEqual([]);
    expect(judge(billing, ['Refund: $348.00\nSettlement: 5-7 business days']).refund_amount.reason).toBe('not_a_sentence');
  });

  it('label lines under a greeting are a message to the customer', () => {
    expect(covered(billing, 'Hi Dana,\nRefund: $348.00\nSettlement: 5-7 business days')).toEqual(BILLING_ALL);
  });
});

describe('pasted policy', () => {
  const policies: PolicyText[] = [
    {
      title: 'Compromised account (suspected account takeover)',
      body: 'When it applies: signs that someone else controls the account. What to do: set the priority to urgent and escalate to the security_ops team. Resolve the ticket as security_escalation. What to tell the customer, the containment steps: we have locked the account and signed out all active sessions; every API key created in the last 72 hours has been revoked; before access is restored we will verify your identity on a video call.',
    },
    { title: 'Forgotten password', body: 'Send a new password reset link and resolve as password_reset_sent. Tell the customer the reset link expires in 30 minutes.' },
  ];

  it('runbook markers cover nothing', () => {
    const v = judge(security, ['What to tell the customer, the containment steps: we have locked the account and signed out all active sessions.'], policies);
    expect(v.account_locked).toMatchObject({ covered: false, reason: 'quoted_policy' });
  });

  it('the rest of a pasted block is pasted too', () => {
    const v = judge(security, ['Hi Helena.\n\n[Internal] Treat it as a security incident. We have locked the account.'], policies);
    expect(v.account_locked.reason).toBe('quoted_policy');
  });

  it('a policy title heading a summary marks it as pasted', () => {
    const v = judge(security, ['Compromised account (suspected account takeover): we have locked the account and signed out all active sessions.'], policies);
    expect(v.account_locked.reason).toBe('quoted_policy');
  });

  it('a near-verbatim agent instruction is pasted policy, and so is an internal code', () => {
    const a = extractMentions('Set the priority to urgent and escalate to the security ops team. Resolved as security_escalation.', security.clock, { policies });
    expect(a.sentences.map((s) => s.status)).toEqual(['quoted_policy', 'quoted_policy']);
  });

  it("the customer-facing facts in the article's own words still count", () => {
    const reply = 'We have locked the account and signed out all active sessions; every API key created in the last 72 hours has been revoked; before access is restored we will verify your identity on a video call.';
    expect(Object.values(judge(security, [reply], policies)).every((v) => v.covered)).toBe(true);
  });
});

describe('explanations', () => {
  it('names the covering sentence and reply', () => {
    const v = judge(billing, ['Hello Dana.', 'We have refunded $348.00 to your Visa. It settles within 5-7 business days.']);
    expect(v.refund_amount).toMatchObject({ covered: true, reply: 1, sentence: 'We have refunded $348.00 to your Visa.' });
  });

  it('says not_stated when nothing was said', () => {
    expect(judge(billing, ['Thanks for your message, we will look into it.']).refund_amount).toMatchObject({ covered: false, reason: 'not_stated' });
  });

  it('the analysis survives a JSON round trip', () => {
    const a = extractMentions('We have refunded $348.00; it settles within 5-7 business days.', billing.clock);
    const stored = JSON.parse(JSON.stringify(a));
    expect(judgeClaims(billing.claims, [stored], LEGACY)).toEqual(judgeClaims(billing.claims, [a], LEGACY));
    expect(judgeClaims(billing.claims, [stored], LEGACY).every((v) => v.covered)).toBe(true);
  });
});
