export * from './engine';
export { declaringLexicon, generatorVersionId, parseGeneratorVersion, type TaskFamily } from './family';
export { Draws } from './random';
export type { FamilySolver, Solve, SolverEnvironment, SolverOptions } from './solver';
export { SPLITS, SPLIT_RULE, SPLIT_SOURCES, nthSeedOf, seedIn, splitOf, type Split, type SplitSource } from './splits';
