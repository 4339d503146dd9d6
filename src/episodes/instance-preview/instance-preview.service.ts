import { Injectable } from '@nestjs/common';
import { callerOf, type Principal } from '../../access/principal';
import { ForbiddenError, InvalidFieldError, NotFoundError } from '../../common/errors/domain-errors';
import { generatorVersionId, splitOf, type TaskFamily } from '../../families';
import { TaskCatalog, UnknownTaskError } from '../../tasks/task-catalog.service';
import type { InstancePreviewDto } from '../dto/instance-preview.dto';
import { previewInstance } from './instance-preview';

/**
 * GET /tasks/{task_id}/instances/{seed}: the instance a seed draws, for people choosing tasks and reading what an
 * agent faced. Train-split instances are for any caller; test-split instances only for callers who see test
 * grades (reader keys, the admin key, the open-mode user): an agent key under evaluation meets them only by
 * playing them, on the record. The private test split is never previewed (its instances are drawn under a key).
 */
@Injectable()
export class InstancePreviewService {
  constructor(private readonly tasks: TaskCatalog) {}

  preview(principal: Principal, taskId: string, seed: number): InstancePreviewDto {
    const family = this.familyOf(taskId);
    const split = splitOf(seed);
    if (split === 'test' && !seesTestInstances(principal)) {
      throw new ForbiddenError(`seed ${seed} is a test seed: an agent key previews train-split instances only (a reader key sees test ones)`);
    }
    const version = generatorVersionId(family.generatorVersion);
    // Drawn here, not through the catalogue's instance cache: a reader paging through seeds must not evict the
    // instances of running episodes (each eviction is a redraw, and a new search index, on their next step).
    const task = family.generate(seed);
    return previewInstance({ task, taskId, seed, split, generatorVersion: version });
  }

  /** The family drawing the task's new instances: 404 for an unknown task, 422 for one with its canonical instance only. */
  private familyOf(taskId: string): TaskFamily {
    let family: TaskFamily | null;
    try {
      family = this.tasks.family(taskId);
    } catch (error) {
      if (error instanceof UnknownTaskError) throw new NotFoundError(error.message);
      throw error;
    }
    if (family === null) {
      throw new InvalidFieldError('task_id', `task "${taskId}" has no family: its only instance is the canonical one (reset with variant "canonical")`);
    }
    return family;
  }
}

/** Whoever is shown test-split grades may see test-split instances: the same one decision (callerOf). */
function seesTestInstances(principal: Principal): boolean {
  return principal.kind === 'admin' || callerOf(principal).seesTestGrades;
}
