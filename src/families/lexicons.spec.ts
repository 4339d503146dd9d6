import { LEGACY_LEXICON } from '../../tools/versions/v2-legacy-lexicon';
import { taskSchema } from '../engine/task.schema';
import { familyIds, familyVersion, latestFamily } from '.';

/*
 * Generator version 2 of each family is version 1 with the family's task lexicon declared (src/families/<id>/
 * lexicon.ts): seed for seed, the same instance plus `answer_key.lexicon`, so every figure measured on g1 (validity,
 * priors, ablations) holds for g2, and grader version 2, which never reads the lexicon, scores both alike.
 */

const SEEDS = Array.from({ length: 200 }, (_, i) => i);

describe.each(familyIds().map((id) => [id] as const))('%s g2', (id) => {
  const g1 = familyVersion(id, 1)!;
  const g2 = familyVersion(id, 2)!;

  it('or a later version declaring the same lexicon draws new episodes, and serves the canonical instance with it', () => {
    const latest = latestFamily(id)!;
    expect(latest.generatorVersion).toBeGreaterThanOrEqual(2);
    const lexicon = g2.generate(0).answer_key.lexicon;
    expect(latest.generate(0).answer_key.lexicon).toEqual(lexicon);
    const canonical = g1.canonical as { answer_key: object };
    expect(latest.canonical).toEqual({ ...canonical, answer_key: { ...canonical.answer_key, lexicon } });
    expect(g2.canonical).toEqual(latest.canonical);
  });

  it("draws g1's instance plus the family's lexicon, for every seed, as a valid task", () => {
    const lexicon = g2.generate(0).answer_key.lexicon;
    expect(lexicon).toBeDefined();
    for (const seed of SEEDS) {
      const a = g1.generate(seed);
      const b = g2.generate(seed);
      expect(a.answer_key.lexicon).toBeUndefined();
      expect(b).toEqual({ ...a, answer_key: { ...a.answer_key, lexicon } });
      expect(taskSchema.parse(b)).toEqual(b);
    }
  });

  it('gives each instance its own copy of the lexicon', () => {
    expect(g2.generate(1).answer_key.lexicon).not.toBe(g2.generate(2).answer_key.lexicon);
  });
});

// Grader version 2 applies its built-in domain words to every task; between them the families' lexicons must
// keep each one (each declared by the family whose content needs it), or say here why not.
it("the families' lexicons hold every domain word grader version 2 knew, but one no family's text uses", () => {
  const flatten = (lexicon: object): string[] =>
    Object.entries(lexicon).flatMap(([field, value]) =>
      typeof value === 'boolean'
        ? [`${field}=${value}`]
        : Array.isArray(value)
          ? value.map((w: string) => `${field}:${w.toLowerCase()}`)
          : Object.entries(value as Record<string, string[]>).flatMap(([sub, ws]) => ws.map((w) => `${field}.${sub}:${w.toLowerCase()}`)),
    );
  const declared = new Set(familyIds().flatMap((id) => flatten(latestFamily(id)!.generate(0).answer_key.lexicon!)));
  // 'transfer' opens no sentence of any family's articles or contract notes outside a runbook section (checked
  // over seeds 0-199 and the canonical instances), the only place an instruction verb counts.
  expect(flatten(LEGACY_LEXICON).filter((w) => !declared.has(w))).toEqual(['instruction_verbs:transfer']);
});
