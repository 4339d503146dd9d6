/**
 * Every family's seeds are split once and for all, the same way on every machine: a seed divisible by 5 is a test
 * seed (one in five), every other seed trains. Train on train seeds, evaluate on test seeds; test-split episodes
 * always run with feedback "final".
 */
export const SPLITS = ['train', 'test'] as const;
export type Split = (typeof SPLITS)[number];

export const SPLIT_RULE = 'test: seeds divisible by 5 (one in five); train: every other seed';

export function splitOf(seed: number): Split {
  return seed % 5 === 0 ? 'test' : 'train';
}

/**
 * A seed of the split from `draw` (uniform over [0, max]): the test seed 5·k, or for train the first of a few draws
 * that is not a test seed (each is with probability 4/5).
 */
export function seedIn(split: Split, draw: (max: number) => number, maxSeed: number): number {
  if (split === 'test') return 5 * draw(Math.floor(maxSeed / 5));
  for (;;) {
    const seed = draw(maxSeed);
    if (splitOf(seed) === 'train') return seed;
  }
}

/** The n-th seed (from 0) of a split, in increasing order: test seeds are 0, 5, 10, …; train seeds 1, 2, 3, 4, 6, … */
export function nthSeedOf(split: Split, n: number): number {
  return split === 'test' ? 5 * n : n + Math.floor(n / 4) + 1;
}

/**
 * Which test split an instance is drawn from: "public", the family's generator fed the seed itself (reproducible by
 * anyone: every train, canonical and public test instance), or "private", fed a seed derived from the test seed
 * under a secret only the server holds (src/tasks/private-split.ts). Private-split seeds are test seeds.
 */
export const SPLIT_SOURCES = ['public', 'private'] as const;
export type SplitSource = (typeof SPLIT_SOURCES)[number];
