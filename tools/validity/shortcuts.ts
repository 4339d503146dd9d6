import type { Action } from '../../src/engine/actions';
import { step } from '../../src/engine/engine';
import type { ActiveTicketView } from '../../src/engine/observation';
import type { EpisodeState } from '../../src/engine/state';
import type { Task } from '../../src/engine/task.schema';
import { latestFamilies, nthSeedOf, type Split, type TaskFamily } from '../../src/families';
import { AgentEnvironment } from './agents';
import { decisionActions, decisionId, decisionOf, describeDecision, type Decision } from './shortcut-decisions';
import { bestFixedDecision, featureRules, mostCommonDecision, ruleDecision, type FeatureRule } from './shortcut-rules';
import { solverOf, solverSearchesAndReply } from './solvers';

/*
 * Shortcut agents, trained on train seeds and evaluated on test seeds: how far a policy gets that decides without
 * reading the knowledge base, from the train split's habits or from one surface feature of the target ticket
 * (docs/validity.md, "Shortcut agents"). A family's answer must not be guessable so; these agents measure it, as an
 * upper bound, so that later changes to the families can be bounded in CI (SHORTCUT_BOUNDS).
 *
 * A decision (shortcut-decisions.ts) is priority, team, resolution code, amount rule and case kind; the train
 * instances' decisions are read from their answer keys. Agents:
 * - most-common: the decision the train keys ask most often, on every test seed;
 * - best-fixed: the train decision with the best mean score on train, on every test seed;
 * - best-single-feature: "if the ticket shows F then A else B", A and B the best on train where F is and is not
 *   present, F the feature whose rule has the best train mean; F ranges over every subject word, body word, the
 *   customer tier, every contract-note word and every event kind of the target ticket;
 * - best-single-feature (no contract notes): the same, F never a contract-note word (the outside evaluation's
 *   setting: the customer's words, tier and events only); reported, not bounded;
 * - best-single-feature (chosen on test): the same rules, F chosen by its TEST mean. Optimistic (selection on test),
 *   reported to show how much the choice of F alone can add; not an agent, and not bounded.
 *
 * Generous on purpose, so the figures bound what such shortcuts reach:
 * - the target ticket is given: the agent opens it first (the only read of a test instance's answer key before
 *   scoring; the features are read from the ticket as the API shows it);
 * - the searches and the reply are the reference solver's on this very instance, worked as the decision's case
 *   kind (`readCaseAs`): when the kind is the instance's own, that is exactly the solver's 1.0 reply and the
 *   searches that put the required articles on top; otherwise the reply a careful agent writes for that kind with
 *   this ticket's values (and that kind's policy figures);
 * - the amount follows the ticket's events where the key's amount does (billing's duplicate charge), so a right
 *   guess of the case is never lost to the figure; elsewhere it is the literal train figure (logistics' credit is
 *   written only in the contract notes).
 *
 * Episodes are played through the engine as an API client plays them (open, searches, priority, route, reply,
 * resolve) for every figure reported on test. Learning needs every decision's score on every train instance: those
 * are computed by branching one episode per instance and kind after its reply (the engine is pure, and the order of
 * the reply among the decisions does not change the grade); the spec checks the two agree.
 */

export const SHORTCUT_TRAIN_SEEDS = 200;
export const SHORTCUT_TEST_SEEDS = 100;

/** The target bounds (TASKS.md, "Measure the prior"), to be met by adding case kinds to the families. */
export const SHORTCUT_BOUNDS = { mostCommon: 0.3, bestFixed: 0.3, bestSingleFeature: 0.4, shareAtOne: 0.02 } as const;

export type ShortcutAgent = 'most-common' | 'best-fixed' | 'best-single-feature' | 'best-single-feature (no contract notes)' | 'best-single-feature (chosen on test)';

export interface ShortcutAgentFigure {
  agent: ShortcutAgent;
  rule: string;
  trainMean: number;
  testMean: number;
  /** Share of test seeds the agent scores exactly 1.0 on. */
  testAtOne: number;
  /** The test scores, per test seed, as played straight through the engine (`testMatrixMeans` for the branched). */
  testScores: number[];
}

export interface ShortcutFigures {
  familyId: string;
  trainSeeds: number;
  testSeeds: number;
  /** Distinct decisions the train keys ask. */
  decisions: number;
  agents: ShortcutAgentFigure[];
}

/** What the agents know of one instance, read without its answer key (bar the target ticket's id). */
export interface CaseFile {
  seed: number;
  task: Task;
  ticket: ActiveTicketView;
  features: Set<string>;
  /** The reference solver's searches and reply on this instance, worked as each case kind. */
  worked: Record<string, { queries: string[]; reply: string }>;
  /** The episode after the target was opened and each kind's searches and reply made (branched per decision). */
  afterReply: Map<string, EpisodeState>;
}

const words = (text: string): string[] => [...new Set(text.toLowerCase().match(/[a-z0-9]+(?:['’-][a-z0-9]+)*/g) ?? [])];

/** Every feature an agent sees on the ticket without reading the knowledge base. */
export function featuresOf(ticket: ActiveTicketView): Set<string> {
  return new Set([
    ...words(ticket.subject).map((w) => `subject:${w}`),
    ...words(ticket.body).map((w) => `body:${w}`),
    `tier:${ticket.customer.tier}`,
    ...words(ticket.contract_notes.join(' ')).map((w) => `note:${w}`),
    ...ticket.recent_events.map((e) => `event:${e.kind}`),
  ]);
}

/**
 * The instance as the agents know it: the target ticket opened (given), and for each case kind the episode after
 * the reference solver's searches for that kind and its reply, worked as that kind.
 */
export function openCase(family: TaskFamily, seed: number, task: Task = family.generate(seed)): CaseFile {
  const open: Action = { type: 'open_ticket', ticket_id: task.answer_key.target_ticket_id };
  const kinds = solverOf(family.id).caseKinds.map((kind) => {
    const episode = new AgentEnvironment(task, seed, 'final');
    const ticket = episode.step(open).observation.active_ticket!;
    const worked = solverSearchesAndReply(episode, task, seed, { readCaseAs: kind });
    if (!episode.done) episode.step({ type: 'send_reply', message: worked.reply });
    return { kind, ticket, worked, after: episode.state };
  });
  const ticket = kinds[0].ticket;
  return {
    seed,
    task,
    ticket,
    features: featuresOf(ticket),
    worked: Object.fromEntries(kinds.map((k) => [k.kind, k.worked])),
    afterReply: new Map(kinds.map((k) => [k.kind, k.after])),
  };
}

/**
 * The case kind of a train instance: the kind whose searches and reply score best on it (the train key, through
 * the engine). The reference solver reads every instance right, so this is also the kind it reads the case as.
 */
function kindOf(file: CaseFile): string {
  const kinds = Object.keys(file.worked);
  const scores = kinds.map((kind) => file.afterReply.get(kind)!.score_milli);
  return kinds[scores.indexOf(Math.max(...scores))];
}

/** The decision's whole episode, in the order an API client plays it. */
export function episodeActions(file: CaseFile, d: Decision): Action[] {
  const { queries, reply } = file.worked[d.kind];
  const [priority, route, resolve] = decisionActions(d, file.ticket);
  return [
    { type: 'open_ticket', ticket_id: file.ticket.ticket_id },
    ...queries.map((query): Action => ({ type: 'search_policy', query })),
    priority,
    route,
    { type: 'send_reply', message: reply },
    resolve,
  ];
}

/** The score of a decision played straight through the engine, feedback "final" as on test. */
export function playDecision(file: CaseFile, d: Decision): number {
  const env = new AgentEnvironment(file.task, file.seed, 'final');
  for (const action of episodeActions(file, d)) if (!env.done) env.step(action);
  return env.state.score_milli / 1000;
}

function play(task: Task, state: EpisodeState, actions: Action[]): EpisodeState {
  for (const action of actions) if (!state.done) state = step(task, state, action).state;
  return state;
}

/** The score of a decision in milli-points, by branching the episode after the kind's searches and reply. */
export function branchedScore(file: CaseFile, d: Decision): number {
  return play(file.task, file.afterReply.get(d.kind)!, decisionActions(d, file.ticket)).score_milli;
}

export function splitSeeds(split: Split, count: number): number[] {
  return Array.from({ length: count }, (_, n) => nthSeedOf(split, n));
}

export interface ShortcutStudy {
  figures: ShortcutFigures;
  decisions: Decision[];
  test: CaseFile[];
  /** Share of train instances on which their own decision (the key's, worked as their kind) scores exactly 1.0. */
  trainOwnDecisionPerfect: number;
  /** Test means of each agent's decisions by branching, to check against the straight plays. */
  testMatrixMeans: Record<string, number>;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function studyShortcuts(family: TaskFamily, trainCount = SHORTCUT_TRAIN_SEEDS, testCount = SHORTCUT_TEST_SEEDS): ShortcutStudy {
  const train = splitSeeds('train', trainCount).map((seed) => openCase(family, seed));
  const trainDecisions = train.map((file) => decisionOf(file.task.answer_key, file.ticket, kindOf(file)));
  // Distinct decisions, most asked first (ties by name), so ties in learning go to the commoner decision.
  const counts = new Map<string, { d: Decision; n: number }>();
  for (const d of trainDecisions) counts.set(decisionId(d), { d, n: (counts.get(decisionId(d))?.n ?? 0) + 1 });
  const decisions = [...counts.values()].sort((a, b) => b.n - a.n || (decisionId(a.d) < decisionId(b.d) ? -1 : 1)).map((e) => e.d);
  const index = new Map(decisions.map((d, i) => [decisionId(d), i]));
  const labels = trainDecisions.map((d) => index.get(decisionId(d))!);
  const trainScores = decisions.map((d) => train.map((file) => branchedScore(file, d)));

  const test = splitSeeds('test', testCount).map((seed) => openCase(family, seed));
  const testScores = decisions.map((d) => test.map((file) => branchedScore(file, d)));
  const trainMeanOf = (pick: (i: number) => number) => mean(train.map((_, i) => trainScores[pick(i)][i])) / 1000;
  const testMeanOf = (pick: (i: number) => number) => mean(test.map((_, i) => testScores[pick(i)][i])) / 1000;

  const fixed = (agent: ShortcutAgent, d: number) => ({ agent, rule: describeDecision(decisions[d]), pick: () => d, train: trainMeanOf(() => d) });
  const byRule = (agent: ShortcutAgent, rule: FeatureRule) => ({
    agent,
    rule: `if ${rule.feature} then ${describeDecision(decisions[rule.present])} else ${describeDecision(decisions[rule.absent])}`,
    pick: (file: CaseFile) => ruleDecision(rule, file.features),
    train: rule.trainMean / 1000,
  });
  const rules = featureRules(trainScores, train.map((file) => file.features));
  const textRules = featureRules(trainScores, train.map((file) => new Set([...file.features].filter((f) => !f.startsWith('note:')))));
  const onTest = (rule: FeatureRule) => testMeanOf((i) => ruleDecision(rule, test[i].features));
  const chosenOnTest = rules.reduce((best, rule) => (onTest(rule) > onTest(best) ? rule : best), rules[0]);
  const agents = [
    fixed('most-common', mostCommonDecision(labels, decisions.length)),
    fixed('best-fixed', bestFixedDecision(trainScores)),
    ...(rules.length > 0 ? [byRule('best-single-feature', rules[0])] : []),
    ...(textRules.length > 0 ? [byRule('best-single-feature (no contract notes)', textRules[0])] : []),
    ...(rules.length > 0 ? [byRule('best-single-feature (chosen on test)', chosenOnTest)] : []),
  ];

  // Agents often play the same decision on a seed (the same episode, deterministic): played once.
  const plays = new Map<string, number>();
  const played = (i: number, d: number) => plays.get(`${i}:${d}`) ?? plays.set(`${i}:${d}`, playDecision(test[i], decisions[d])).get(`${i}:${d}`)!;
  const testMatrixMeans: Record<string, number> = {};
  const figures = agents.map((a): ShortcutAgentFigure => {
    const picks = test.map((file) => a.pick(file));
    testMatrixMeans[a.agent] = testMeanOf((i) => picks[i]);
    const scores = test.map((file, i) => played(i, picks[i]));
    return { agent: a.agent, rule: a.rule, trainMean: a.train, testMean: mean(scores), testAtOne: scores.filter((s) => s === 1).length / scores.length, testScores: scores };
  });
  const trainOwnDecisionPerfect = labels.filter((d, i) => trainScores[d][i] === 1000).length / train.length;
  return { figures: { familyId: family.id, trainSeeds: trainCount, testSeeds: testCount, decisions: decisions.length, agents: figures }, decisions, test, testMatrixMeans, trainOwnDecisionPerfect };
}

export function allShortcutFigures(): ShortcutFigures[] {
  return latestFamilies().map((family) => studyShortcuts(family).figures);
}

/** What breaks the target bounds, in words (none: the family meets them). The chosen-on-test row is not an agent. */
export function shortcutBoundBreaches(f: ShortcutFigures, bounds = SHORTCUT_BOUNDS): string[] {
  const limits: [ShortcutAgent, number][] = [['most-common', bounds.mostCommon], ['best-fixed', bounds.bestFixed], ['best-single-feature', bounds.bestSingleFeature]];
  return limits.flatMap(([agent, limit]) => {
    const a = f.agents.find((x) => x.agent === agent);
    if (!a) return [`${f.familyId}: ${agent} not measured`];
    return [
      ...(a.testMean > limit ? [`${f.familyId}: ${agent} means ${a.testMean.toFixed(3)} on test, over ${limit}`] : []),
      ...(a.testAtOne > bounds.shareAtOne ? [`${f.familyId}: ${agent} scores 1.0 on ${(100 * a.testAtOne).toFixed(1)}% of test seeds, over ${100 * bounds.shareAtOne}%`] : []),
    ];
  });
}

export function shortcutTable(figures: ShortcutFigures[]): string {
  const lines = ['| family | agent | decision or rule | train mean | test mean | test seeds at 1.0 |', '| --- | --- | --- | ---: | ---: | ---: |'];
  for (const f of figures) {
    for (const a of f.agents) {
      lines.push(`| ${f.familyId} | ${a.agent} | ${a.rule} | ${a.trainMean.toFixed(3)} | ${a.testMean.toFixed(3)} | ${(100 * a.testAtOne).toFixed(1)}% |`);
    }
  }
  return lines.join('\n');
}
