import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InvalidFieldError, NotFoundError, ValidationFailedError } from '../../common/errors/domain-errors';
import type { EpisodeCaller } from '../../access/principal';
import { Database } from '../../database/database.service';
import type { ResetRequestDto } from '../dto/reset-request.dto';
import type { FeedbackMode } from '../episode.repository';
import { selectNextClaimableCells, selectRunForReset, type CellKey } from './run-cell-statements';

/** How many of the first claimable cells a reset that lost its first pick to a concurrent one chooses among. */
const CLAIM_WINDOW = 32;

/** What a reset needs of the run whose cell it fills: everything that decides the instance. */
export interface RunForCells {
  id: string;
  name: string;
  agent: string;
  /** "test", "train" or "canonical" (the task file's fixed instance). */
  split: string;
  feedback: FeedbackMode;
  families: string[];
  seeds: number[];
  trials: number;
  graderVersion: number;
  /** The task version of each family's instances (a generator version id, or a canonical task file's hash). */
  versions: Record<string, string>;
}

/** The run cells a reset fills: the run as the caller may use it, and the next cell it may claim. */
@Injectable()
export class RunCells {
  constructor(private readonly database: Database) {}

  /**
   * The run `runId` if the caller may fill it: a run of its tenant created by the same agent key (or, for the
   * open-mode user, any run of the public tenant). Another key's run answers like a missing one (404).
   */
  async runFor(caller: EpisodeCaller, runId: string): Promise<RunForCells> {
    const row = await this.database.read((sql) => selectRunForReset(sql, caller.tenantId, runId));
    if (row === null || (!caller.seesWholeTenant && row.apiKeyId !== caller.keyId)) {
      throw new NotFoundError(`no run "${runId}" (create one with POST /runs)`);
    }
    return {
      id: row.id,
      name: row.name,
      agent: row.agent,
      split: row.split,
      feedback: row.feedback === 'dense' ? 'dense' : 'final',
      families: JSON.parse(row.familiesJson) as string[],
      seeds: JSON.parse(row.seedsJson) as number[],
      trials: row.trials,
      graderVersion: row.graderVersion,
      versions: JSON.parse(row.generatorsJson) as Record<string, string>,
    };
  }

  /**
   * A cell a reset may claim now; null when none is left. The first attempt takes the first claimable cell in hand-out
   * order (a lone worker fills a run in order); a retry, after a concurrent reset claimed that one first, takes one of
   * the first CLAIM_WINDOW at random, so workers that collided once rarely collide again and the run stays balanced.
   */
  async nextCell(tenantId: string, runId: string, attempt: number): Promise<CellKey | null> {
    const candidates = await this.database.read((sql) => selectNextClaimableCells(sql, tenantId, runId, attempt === 1 ? 1 : CLAIM_WINDOW));
    if (candidates.length === 0) return null;
    return { runId, ...candidates[randomInt(candidates.length)] };
  }
}

/** What a run decides for each of its episodes: a reset that fills a cell leaves these out. */
export const RUN_DECIDED_FIELDS = ['split', 'variant', 'feedback', 'agent', 'run_label'] as const;

/**
 * The cell a reset names (`task_id`, `seed` and `trial`, all three), or null when it names none and takes the next
 * one. What the body alone decides is checked before the run is looked up, so a malformed request is a 422 whether
 * or not its run exists: the fields the run decides must be left out, and a cell is named by all three fields or
 * none. `cellOfRun` then checks the named cell is one of the run's.
 */
export function cellNamedBy(request: ResetRequestDto, runId: string): Omit<CellKey, 'runId'> | null {
  // Each refusal names every field of the combination (run_id too), since changing any one of them mends it.
  const decided = RUN_DECIDED_FIELDS.filter((field) => request[field] !== undefined);
  if (decided.length > 0) {
    const message = `run "${runId}" decides ${decided.join(', ')} for its episodes (GET /runs/${runId}); omit ${decided.length > 1 ? 'them' : 'it'} when filling a cell`;
    throw new ValidationFailedError(['run_id', ...decided].map((field) => ({ field, message })));
  }
  const named = { task_id: request.task_id, seed: request.seed, trial: request.trial };
  const given = Object.entries(named).filter(([, value]) => value !== undefined);
  if (given.length === 0) return null;
  if (given.length < 3) {
    const missing = Object.entries(named).filter(([, value]) => value === undefined).map(([field]) => field);
    const message = `a run cell is named by task_id, seed and trial together, or the run hands out its next one; ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing`;
    throw new ValidationFailedError(['run_id', ...Object.keys(named)].map((field) => ({ field, message })));
  }
  return { taskId: request.task_id!, seed: request.seed!, trial: request.trial! };
}

/** The named cell as one of `run`'s (422 when the run has no such cell). */
export function cellOfRun(named: Omit<CellKey, 'runId'>, run: RunForCells): CellKey {
  const cell = { runId: run.id, ...named };
  if (!run.families.includes(cell.taskId) || !run.seeds.includes(cell.seed) || cell.trial >= run.trials) {
    throw new InvalidFieldError(
      'run_id',
      `run "${run.id}" has no cell (task_id "${cell.taskId}", seed ${cell.seed}, trial ${cell.trial}): its families are ${run.families.join(', ')}, ` +
        `its seeds ${run.seeds.length} (GET /runs/${run.id}), its trials 0-${run.trials - 1}`,
    );
  }
  return cell;
}
