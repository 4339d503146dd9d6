export * from './engine';
export { declaringLexicon, generatorVersionId, parseGeneratorVersion, type TaskFamily } from './family';
export { Draws } from './random';
export type { FamilySolver, Solve, SolverEnvironment, SolverOptions } from './solver';
export { SPLITS, SPLIT_RULE, nthSeedOf, seedIn, splitOf, type Split } from './splits';
