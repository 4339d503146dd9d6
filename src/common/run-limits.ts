/*
 * The size limits of an evaluation run (src/runs): here, below every layer that states them (the request DTOs, the
 * reset's trial field, and the OpenAPI document, which narrows the seed bounds to this server's catalogue).
 */

/** The most trials a run may have per (family, seed). */
export const MAX_TRIALS = 20;
/** The most seeds one run may name. */
export const MAX_RUN_SEEDS = 5000;
/**
 * The most cells (families × seeds × trials) one run may have. Its cells are written in one transaction and its
 * results read them all, each a synchronous stretch of the event loop: at 20,000 cells, a few hundred milliseconds at
 * most on a 2-core machine (100,000 took 2-3 s, in which every other request waited). 15 families × 333 seeds × 4
 * trials fit.
 */
export const MAX_RUN_CELLS = 20_000;

/**
 * The most seeds a run may name on a server with `tasks` tasks: a run of every task with the most trials stays
 * within MAX_RUN_CELLS, so the bound does not depend on the rest of the request (and the document can state it).
 */
export function mostRunSeeds(tasks: number): number {
  return Math.max(1, Math.min(MAX_RUN_SEEDS, Math.floor(MAX_RUN_CELLS / (Math.max(1, tasks) * MAX_TRIALS))));
}
