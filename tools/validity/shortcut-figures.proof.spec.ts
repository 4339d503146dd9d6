import { latestFamilies } from '../../src/families';
import { openCase, shortcutBoundBreaches, studyShortcuts, type ShortcutStudy } from './shortcuts';
import { referenceRun } from './solvers';

/*
 * The shortcut agents on every family (tools/validity/shortcuts.ts; docs/validity.md, "Shortcut agents"): the
 * instrument's right guesses score 1.0 and its branched scores are the episodes' own, the figures it gives the
 * current families are pinned, and the families that meet the target bounds are held to them: billing (generator
 * version 3, its case kinds), logistics (generator version 4) and security (generator version 6, nine kinds of account
 * case, the priority and team from more of the knowledge base's figures, each tier's desk from the instance's rota); a family change that moves them shows here. About a minute: CI runs it beside npm test (npm run test:slow); the instrument's
 * own checks on made-up figures are in npm test (shortcuts.spec.ts).
 */

const families = latestFamilies();
const studies = new Map<string, ShortcutStudy>();
const studyOf = (id: string) => studies.get(id) ?? studies.set(id, studyShortcuts(families.find((f) => f.id === id)!)).get(id)!;
const agentOf = (s: ShortcutStudy, agent: string) => s.figures.agents.find((a) => a.agent === agent)!;

describe.each(families.map((f) => [f.id] as const))('%s shortcut agents', (id) => {
  it('train: each instance\'s own decision scores exactly 1.0 (the generous reply and amount), the best fixed decision means at least the most common, a one-feature rule at least the best fixed', () => {
    const s = studyOf(id);
    expect(s.trainOwnDecisionPerfect).toBe(1);
    expect(agentOf(s, 'best-fixed').trainMean).toBeGreaterThanOrEqual(agentOf(s, 'most-common').trainMean);
    expect(agentOf(s, 'best-single-feature').trainMean).toBeGreaterThanOrEqual(agentOf(s, 'best-fixed').trainMean);
  });

  it('test: the episodes played straight give the branched scores, and the reference solver scores 1.0 on every test seed', () => {
    const s = studyOf(id);
    for (const a of s.figures.agents) expect([a.agent, a.testMean.toFixed(6)]).toEqual([a.agent, s.testMatrixMeans[a.agent].toFixed(6)]);
    expect(s.test.filter((file) => referenceRun(file.task, file.seed).score !== 1).map((file) => file.seed)).toEqual([]);
  });

  it('test: what an agent knows of a test instance does not depend on its answer key, bar the target', () => {
    const family = families.find((f) => f.id === id)!;
    const task = family.generate(5);
    const key = task.answer_key;
    const tampered = { ...task, answer_key: { ...key, priority: key.priority === 'low' ? 'high' : 'low', team: 'technical_support', resolution: { code: 'no_action_needed' } } } as const;
    const [honest, blind] = [openCase(family, 5, task), openCase(family, 5, tampered)];
    expect([blind.features, blind.worked, blind.ticket]).toEqual([honest.features, honest.worked, honest.ticket]);
  });

  it('the figures are the documented ones (docs/validity.md)', () => {
    const s = studyOf(id);
    const measured = Object.fromEntries(s.figures.agents.map((a) => [a.agent, [Number(a.testMean.toFixed(3)), Number(a.testAtOne.toFixed(2)), a.rule]]));
    expect({ decisions: s.figures.decisions, ...measured }).toEqual(SHORTCUT_FIGURES[id]);
  });
});

// The families that meet the target bounds, and must go on meeting them. Security's generator version 5 met them
// under grader version 7 but not under versions 8 and 9: the best one-feature rule learned on train became "premium
// or VIP (the response-target note): high, technical_support, no action, worked as blocked attempts", at 1.0 on 4% of
// test seeds (the bound is 2%), because the support-tier desk was fixed by the tier. Its generator version 6 draws
// each tier's desk per instance (the triage article's desk rota), words the tier note for every tier in one of four
// ways, and spreads the kinds, the priorities and the codes evenly; it meets them again.
const MEETING_BOUNDS = ['billing_duplicate_charge', 'security_compromised_account', 'logistics_missing_order_vip'];

describe.each(MEETING_BOUNDS.map((id) => [id] as const))('%s shortcut agents, against the target bounds', (id) => {
  it('meet SHORTCUT_BOUNDS on the test split: most-common and best-fixed <= 0.30, best-single-feature <= 0.40, none at 1.0 on more than 2% of test seeds', () => {
    expect(shortcutBoundBreaches(studyOf(id).figures)).toEqual([]);
  });
});

// What the agents reach on the current families (200 train seeds, 100 test seeds): test mean, share of test seeds
// at 1.0, and the decision or rule, under the current grader. Billing's (generator version 3), security's (generator
// version 6) and logistics' (generator version 4) are within the bounds; held here so that a change to a family or the
// grader shows.
const SHORTCUT_FIGURES: Record<string, Record<string, unknown>> = {
  billing_duplicate_charge: {
    decisions: 159,
    'most-common': [0.174, 0.02, 'normal, general_support, information_provided, worked as already_refunded'],
    'best-fixed': [0.279, 0.01, 'high, billing, refund_issued (the repeated charge), worked as card_refund'],
    'best-single-feature': [0.327, 0.01, 'if note:annual then high, billing, refund_issued (the repeated charge), worked as card_refund else normal, billing, credit_issued $124, worked as monthly_credit'],
    'best-single-feature (no contract notes)': [0.313, 0.01, 'if tier:vip then high, vip_concierge, refund_issued (the repeated charge), worked as card_refund else normal, billing, refund_issued (the repeated charge), worked as card_refund'],
    'best-single-feature (chosen on test)': [0.327, 0.01, 'if note:annual then high, billing, refund_issued (the repeated charge), worked as card_refund else normal, billing, credit_issued $124, worked as monthly_credit'],
  },
  security_compromised_account: {
    decisions: 86,
    'most-common': [0.276, 0.02, 'low, general_support, information_provided, worked as mfa_trouble'],
    'best-fixed': [0.289, 0, 'urgent, security_ops, no_action_needed, worked as blocked_attempts'],
    'best-single-feature': [0.232, 0.01, 'if body:an then urgent, general_support, password_reset_sent, worked as forgotten_password else urgent, security_ops, no_action_needed, worked as lockout'],
    'best-single-feature (no contract notes)': [0.232, 0.01, 'if body:an then urgent, general_support, password_reset_sent, worked as forgotten_password else urgent, security_ops, no_action_needed, worked as lockout'],
    'best-single-feature (chosen on test)': [0.321, 0.02, 'if note:coverage then urgent, vip_concierge, no_action_needed, worked as blocked_attempts else urgent, technical_support, security_escalation, worked as blocked_attempts'],
  },
  logistics_missing_order_vip: {
    decisions: 137,
    'most-common': [0.124, 0.02, 'high, logistics, carrier_trace_opened, worked as carrier_trace'],
    'best-fixed': [0.248, 0, 'high, logistics, replacement_dispatched $25, worked as ground_replacement'],
    'best-single-feature': [0.296, 0.01, 'if note:standard then normal, general_support, replacement_dispatched $10, worked as ground_replacement else high, logistics, replacement_dispatched $25, worked as express_replacement'],
    'best-single-feature (no contract notes)': [0.296, 0.01, 'if tier:standard then normal, general_support, replacement_dispatched $10, worked as ground_replacement else high, logistics, replacement_dispatched $25, worked as express_replacement'],
    'best-single-feature (chosen on test)': [0.303, 0, 'if note:to then normal, vip_concierge, replacement_dispatched $120, worked as ground_replacement else high, logistics, replacement_dispatched $25, worked as express_replacement'],
  },
};
