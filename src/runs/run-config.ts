import { randomBytes } from 'node:crypto';
import { canonicalJson, sha256Hex } from '../common/canonical-json';
import { ValidationFailedError, InvalidFieldError } from '../common/errors/domain-errors';
import { CURRENT_GRADER_VERSION } from '../engine/graders';
import { generatorVersionId, nthSeedOf, splitOf, SPLIT_RULE } from '../families';
import type { FeedbackMode } from '../episodes';
import type { TaskCatalog } from '../tasks/task-catalog.service';
import { MAX_RUN_CELLS, MAX_TRIALS, mostRunSeeds } from '../common/run-limits';
import type { CreateRunRequestDto, RunSplit } from './dto/create-run.dto';

/** The default success threshold: a full score, as the agent runner's pass^k has always counted it. */
export const DEFAULT_SUCCESS_MILLI = 1000;

/** What fixes a run's cells and how they are scored: everything its configuration hash covers. */
export interface RunConfig {
  split: RunSplit;
  feedback: FeedbackMode;
  families: string[];
  seeds: number[];
  trials: number;
  successMilli: number;
  graderVersion: number;
  /** Task id → the task version its instances come from. */
  versions: Record<string, string>;
}

/** A new run id: not guessable, so one tenant's run ids tell nothing about another's. */
export function newRunId(): string {
  return `run_${randomBytes(12).toString('hex')}`;
}

/**
 * The configuration a POST /runs asks for, resolved against this server's catalogue: the families ("all": every
 * task with a generator, or every task for the canonical split), the seeds (the first `seed_count` of the split, or
 * the list given, each checked to be of the split), and the versions new episodes of each family are drawn and
 * graded with, pinned so every cell of the run is the same experiment even across an upgrade.
 */
export function resolveRunConfig(request: CreateRunRequestDto, catalog: TaskCatalog): RunConfig {
  const split = request.split ?? 'test';
  if (split === 'test' && request.feedback === 'dense') {
    throw conflicting(['split', 'feedback'], 'test-split runs are final-mode: their scores are withheld from agent keys until read with a reader key');
  }
  if ((request.seeds === undefined) === (request.seed_count === undefined)) {
    throw conflicting(['seeds', 'seed_count'], 'give exactly one of seeds (a list) and seed_count (the first N seeds of the split)');
  }
  const families = familiesOf(request.families, split, catalog);
  const seeds = request.seeds ?? Array.from({ length: request.seed_count! }, (_, n) => (split === 'canonical' ? n : nthSeedOf(split, n)));
  if (split !== 'canonical') {
    const strays = seeds.filter((seed) => splitOf(seed) !== split);
    if (strays.length > 0) {
      throw new InvalidFieldError('seeds', `seeds ${strays.slice(0, 5).join(', ')}${strays.length > 5 ? ', …' : ''} are not ${split} seeds (${SPLIT_RULE})`);
    }
  }
  const mostSeeds = mostRunSeeds(catalog.list().length);
  if (seeds.length > mostSeeds) {
    const field = request.seeds === undefined ? 'seed_count' : 'seeds';
    throw new InvalidFieldError(field, `a run on this server names at most ${mostSeeds} seeds (${MAX_RUN_CELLS} cells with every task and ${MAX_TRIALS} trials)`);
  }
  const versions = Object.fromEntries(
    families.map((id) => [id, split === 'canonical' ? catalog.latest(id).version : generatorVersionId(catalog.family(id)!.generatorVersion)]),
  );
  return {
    split,
    feedback: request.feedback ?? 'final',
    families,
    seeds,
    trials: request.trials,
    successMilli: Math.round((request.success_threshold ?? DEFAULT_SUCCESS_MILLI / 1000) * 1000),
    graderVersion: CURRENT_GRADER_VERSION,
    versions,
  };
}

function familiesOf(requested: string[] | 'all', split: RunSplit, catalog: TaskCatalog): string[] {
  const generated = (id: string) => catalog.family(id) !== null;
  const known = catalog.list().map(({ task }) => task.id);
  if (requested === 'all') return split === 'canonical' ? known : known.filter(generated);
  const unknown = requested.filter((id) => !known.includes(id));
  if (unknown.length > 0) throw new InvalidFieldError('families', `no task ${unknown.map((id) => `"${id}"`).join(', ')}; GET /tasks lists ${known.join(', ')}`);
  const fixed = split === 'canonical' ? [] : requested.filter((id) => !generated(id));
  if (fixed.length > 0) throw new InvalidFieldError('families', `${fixed.join(', ')} has no generator: only split "canonical" runs it`);
  return requested;
}

/**
 * The configuration hash: runs with the same one have exactly the same cells, drawn and scored the same way, so
 * their results pair cell by cell and may share a leaderboard. The order families and seeds were listed in does not
 * matter; who ran it (name, agent, model, metadata) is not part of it.
 */
export function configHash(config: RunConfig): string {
  return sha256Hex(
    canonicalJson({
      split: config.split,
      feedback: config.feedback,
      families: [...config.families].sort(),
      seeds: [...config.seeds].sort((a, b) => a - b),
      trials: config.trials,
      success_milli: config.successMilli,
      grader_version: config.graderVersion,
      versions: config.versions,
    }),
  );
}

/** The cells in hand-out order: every family and seed of trial 0, then of trial 1, …, so a partial run is balanced. */
export function cellsOf(config: Pick<RunConfig, 'families' | 'seeds' | 'trials'>): { taskId: string; seed: number; trial: number }[] {
  const cells: { taskId: string; seed: number; trial: number }[] = [];
  for (let trial = 0; trial < config.trials; trial++) {
    for (const seed of config.seeds) for (const taskId of config.families) cells.push({ taskId, seed, trial });
  }
  return cells;
}

function conflicting(fields: string[], message: string): ValidationFailedError {
  return new ValidationFailedError(fields.map((field) => ({ field, message })));
}
