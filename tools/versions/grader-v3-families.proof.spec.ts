import { canonicalJson, sha256Hex } from '../../src/common/canonical-json';
import { grade } from '../../src/engine/grader';
import { taskSchema, type Task } from '../../src/engine/task.schema';
import { familyIds, familyVersion } from '../../src/families';
import { ACCEPTED_CARD_BRANDS } from '../../src/families/shared';
import { AgentEnvironment } from '../validity/agents';
import { solverOf } from '../validity/solvers';
import { familyFixtures } from '../validity/validity-suite';
import { caseOutcome, corpusTask, readCorpus, readManifest, type CorpusCase } from './version-hashes';

/*
 * Grader version 3 on each family's generator version 2 (its instances declare the family's own lexicon,
 * src/families/<id>/lexicon.ts) must judge as version 2 judges the matching g1 instance: the same step rewards,
 * scores, state and grade breakdown, case by case. grader-v3-equivalence.proof.spec.ts proves it with version 2's whole
 * word list on every task; this holds each family's own, smaller declaration to the same verdicts on
 * - every reply of the family's fixture sets (src/families/<id>/fixtures/*.json), on the canonical instance they
 *   were written for, with the family's lexicon added to it;
 * - version 2's frozen corpus (fixture replies, and per family seeds 0-9: the reference trajectory and its varied
 *   and hostile variants), each task given its own family's lexicon (checked against version 2's frozen hash);
 * - the reference solver over seeds 0-49, run live under version 3 on g2, which must still score exactly 1.0;
 * - a reply asking the customer for "your Visa number" (each brand the company accepts, src/families/shared/company.ts),
 *   penalised in every family, as version 2 penalises it, because every family's lexicon declares the company's cards.
 */

// Both generators and both graders are frozen (released-versions.spec.ts), so fifty seeds say what two hundred did
// when version 3 was made current; `npm run validity` runs the solver under version 3 on a thousand.
const SEEDS = Array.from({ length: 50 }, (_, i) => i);

/** The lexicon a family's newest generator declares. */
const lexiconOf = (id: string) => familyVersion(id, 2)!.generate(0).answer_key.lexicon!;
const withLexicon = (task: Task): Task => ({ ...task, answer_key: { ...task.answer_key, lexicon: lexiconOf(task.id) } });

/** An outcome with the version number taken out (the state and the grade each record theirs). */
const withoutVersion = (outcome: unknown): string => (typeof outcome === 'string' ? outcome : canonicalJson(outcome)).replace(/"grader_version":3/g, '"grader_version":2');

type Pair = { label: string; v2: Task; v3: Task; c: CorpusCase };

function differs({ label, v2, v3, c }: Pair): boolean {
  const actual = canonicalJson(caseOutcome(v3, c, 3));
  if (!actual.includes('"grader_version":3')) throw new Error(`case ${label} was not graded by version 3`);
  return withoutVersion(caseOutcome(v2, c, 2)) !== withoutVersion(JSON.parse(actual));
}

function differences(pairs: Pair[]): string[] {
  return pairs.filter(differs).map((p) => p.label);
}

function corpusPairs(lexicon: (task: Task) => Task, only?: string) {
  const corpus = readCorpus(readManifest().graders['2'].corpus);
  const tasks = new Map<string, Task>();
  return corpus.cases.flatMap((c) => {
    const key = canonicalJson(c.task);
    let v2 = tasks.get(key);
    if (!v2) tasks.set(key, (v2 = corpusTask(corpus, c.task)));
    return only === undefined || v2.id === only ? [{ label: c.label, v2, v3: lexicon(v2), c }] : [];
  });
}

// Version 2's outcomes on its corpus are frozen as a hash (released-versions.spec.ts holds version 2 to it), so version
// 3's, version number aside, must hash alike; only when they do not is version 2 run, to name the cases that differ.
it("judges version 2's frozen corpus as version 2, each task given its own family's lexicon", () => {
  const pairs = corpusPairs(withLexicon);
  for (const id of familyIds()) expect(pairs.filter((p) => p.v2.id === id).length).toBeGreaterThan(100);
  const outcomes = pairs.map(({ label, v3, c }) => {
    const actual = canonicalJson(caseOutcome(v3, c, 3));
    if (!actual.includes('"grader_version":3')) throw new Error(`case ${label} was not graded by version 3`);
    return actual;
  });
  if (sha256Hex(withoutVersion(`[${outcomes.join(',')}]`)) === readManifest().graders['2'].verdicts) return;
  expect(differences(pairs)).toEqual([]);
  throw new Error('version 3 hashes unlike version 2 on its corpus, yet no case differs: the hash is not computed as verdictHash computes it');
});

// The comparison can fail: an instance declaring an empty lexicon (no word of any family) is judged otherwise.
it('tells an empty lexicon from the families: version 3 then differs from version 2 on its corpus', () => {
  expect(corpusPairs((task) => ({ ...task, answer_key: { ...task.answer_key, lexicon: {} } })).some(differs)).toBe(true);
});

describe.each(familyIds().map((id) => [id] as const))('%s: version 3 on g2 judges as version 2 on g1', (id) => {
  it('on every reply of the family fixtures, on the canonical instance', () => {
    const canonical = corpusCanonical(id);
    const v3 = withLexicon(canonical);
    const pairs = familyFixtures(id).flatMap(({ set, fixture }) =>
      [...fixture.correct, ...fixture.adversarial, ...(fixture.harmful ?? [])].map((r) => {
        const messages = typeof r.reply === 'string' ? [r.reply] : r.reply;
        const c: CorpusCase = {
          label: `${set}/${r.id}`,
          task: { snapshot: id },
          seed: 1,
          actions: [{ type: 'open_ticket', ticket_id: canonical.answer_key.target_ticket_id }, ...messages.map((message) => ({ type: 'send_reply' as const, message }))],
        };
        return { label: c.label, v2: canonical, v3, c };
      }),
    );
    expect(pairs.length).toBeGreaterThan(100);
    expect(differences(pairs)).toEqual([]);
  });

  it('penalises a reply asking for the card by its brand ("your Visa number") as version 2 does, through the lexicon', () => {
    const canonical = corpusCanonical(id);
    const { payment_cards: _, ...withoutCards } = lexiconOf(id);
    const variants = { v3: withLexicon(canonical), noCards: { ...canonical, answer_key: { ...canonical.answer_key, lexicon: withoutCards } } };
    const cases = ACCEPTED_CARD_BRANDS.map((brand): CorpusCase => ({
      label: brand,
      task: { snapshot: id },
      seed: 1,
      actions: [
        { type: 'open_ticket', ticket_id: canonical.answer_key.target_ticket_id },
        { type: 'send_reply', message: `Thanks for getting in touch. To confirm it's you, please reply with your full ${brand} number.` },
      ],
    }));
    const askedForCard = (task: Task, c: CorpusCase, version: 2 | 3) =>
      JSON.stringify((caseOutcome(task, c, version) as { grade: { penalties: unknown[] } }).grade.penalties).includes('asks_for_card_details');
    expect(cases.map((c) => [c.label, askedForCard(canonical, c, 2), askedForCard(variants.v3, c, 3)])).toEqual(cases.map((c) => [c.label, true, true]));
    expect(differences(cases.map((c) => ({ label: c.label, v2: canonical, v3: variants.v3, c })))).toEqual([]);
    // Without the company's cards in the lexicon version 3 would not know the brand: the declaration is what catches it.
    expect(cases.filter((c) => askedForCard(variants.noCards, c, 3)).map((c) => c.label)).toEqual([]);
  });

  it('is solved by the reference solver under version 3 on g2 exactly as under version 2 on g1, with a score of 1.0, seeds 0-49', () => {
    const differ: number[] = [];
    for (const seed of SEEDS) {
      const runs = ([[1, 2], [2, 3]] as const).map(([generator, grader]) => {
        const task = familyVersion(id, generator)!.generate(seed);
        const env = new AgentEnvironment(task, seed, 'dense', grader);
        solverOf(id).solve(env);
        return { env, task };
      });
      const [g1, g2] = runs;
      expect(g2.env.state.grader_version).toBe(3);
      expect({ seed, score: g2.env.state.score_milli, penalties: grade(g2.task, g2.env.state).penalties }).toEqual({ seed, score: 1000, penalties: [] });
      if (withoutVersion({ s: g1.env.state, r: g1.env.rewards }) !== withoutVersion({ s: g2.env.state, r: g2.env.rewards })) differ.push(seed);
    }
    expect(differ).toEqual([]);
  });
});

/** The canonical instance the fixtures were written for, as the catalogue serves it. */
function corpusCanonical(id: string): Task {
  return taskSchema.parse(familyVersion(id, 2)!.canonical);
}
