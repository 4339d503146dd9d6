import { extractMentions, judgeClaims, type ClaimVerdict, type ReplyClaim } from './index';
import { compileLexicon, lexiconSchema, type TaskLexicon } from './lexicon';

/*
 * A fourth domain no family has (a library renewing loans), written only as claims and a task lexicon: what the
 * engine knows of it, it learns from the task. Each rule is shown both ways, without the lexicon and with it.
 */

const CLOCK = '2026-03-02T10:00:00+00:00';

const feeWaived: ReplyClaim = {
  id: 'fee_waived', description: 'the late fee waived', kind: 'money', amount: 12, currency: 'USD',
  about: ['waived', 'waive'], not_about: ['deposit'],
};
const loansRenewed: ReplyClaim = { id: 'loans_renewed', description: 'the loans renewed', kind: 'action', verbs: ['renew'], objects: ['loan'] };

function judged(claim: ReplyClaim, reply: string, lexicon?: TaskLexicon): ClaimVerdict {
  const l = compileLexicon(lexicon && lexiconSchema.parse(lexicon));
  return judgeClaims([claim], [extractMentions(reply, CLOCK, { lexicon: l })], l)[0];
}

describe('a task teaches the engine the words of its domain', () => {
  it('rate_units: "$12.00 per volume" is a rate of the goods the task names, another figure', () => {
    const reply = "We've waived the late fee: $12.00 per volume.";
    expect(judged(feeWaived, reply).covered).toBe(true);
    expect(judged(feeWaived, reply, { rate_units: ['volume'] })).toMatchObject({ covered: false, reason: 'conflicting_value' });
  });

  it('refund_destinations: "moved to your Zeta" says where the money went back, not the other thing', () => {
    const claim: ReplyClaim = { ...feeWaived, not_about: ['moved'] };
    const reply = 'The $12.00 was waived and moved to your Zeta wallet.';
    expect(judged(claim, reply).covered).toBe(true); // the clause names the event, so the other thing does not count
    const elsewhere = 'The $12.00 has been moved to your Zeta wallet.';
    expect(judged({ ...claim, anchors: ['wallet'] }, elsewhere).covered).toBe(false);
    expect(judged({ ...claim, anchors: ['wallet'] }, elsewhere, { refund_destinations: ['zeta'] }).covered).toBe(true);
  });

  it('third_parties: what the impostor did is no act of ours', () => {
    const reply = 'The impostor renewed your loans yesterday.';
    expect(judged(loansRenewed, reply).covered).toBe(true);
    expect(judged(loansRenewed, reply, { third_parties: ['impostor'] }).covered).toBe(false);
  });

  it('withdrawals: a phrase the task names takes back what earlier replies said', () => {
    const l = compileLexicon({ withdrawals: ['borrow again as before'] });
    const replies = ["We've renewed your loans.", 'You can borrow again as before.'].map((r) => extractMentions(r, CLOCK, { lexicon: l }));
    expect(judgeClaims([loansRenewed], replies)[0].covered).toBe(true);
    expect(judgeClaims([loansRenewed], replies, l)[0].covered).toBe(false);
  });

  it('action_nouns: "the renewal of your loans" states the renewal once the task names the noun', () => {
    const reply = "We've completed the renewal of your loans.";
    expect(judged(loansRenewed, reply).covered).toBe(false);
    expect(judged(loansRenewed, reply, { action_nouns: { renew: ['renewal'] } }).covered).toBe(true);
  });

  it('reversals: an undoing the task names denies the action', () => {
    const reply = 'We renewed your loans this morning, then recalled them an hour later.';
    expect(judged(loansRenewed, reply).covered).toBe(true);
    expect(judged(loansRenewed, reply, { reversals: ['recalled'] }).covered).toBe(false);
  });

  it('the lexicon is optional data: unknown fields are refused, and none is required', () => {
    expect(lexiconSchema.safeParse({}).success).toBe(true);
    expect(lexiconSchema.safeParse({ goods: ['volume'] }).success).toBe(false);
  });
});
