import { Inject, Injectable } from '@nestjs/common';
import type { EpisodeCaller } from '../access/principal';
import { Clock } from '../common/clock';
import { InvalidFieldError } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EpisodesService } from '../episodes';
import { TaskCatalog } from '../tasks/task-catalog.service';
import { BaselineQuota } from './baseline-quota';
import { BASELINE_POLICY, runBaseline, type BaselineEnvironment } from './baseline-run';
import type { BaselineResponseDto } from './dto/baseline.dto';

@Injectable()
export class BaselineService {
  private readonly quota: BaselineQuota;

  constructor(
    private readonly episodes: EpisodesService,
    private readonly catalog: TaskCatalog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    clock: Clock,
  ) {
    this.quota = new BaselineQuota(config.baselineRunsPerHour, () => clock.now().getTime());
  }

  /**
   * Runs the heuristic policy on each task (all when none are named) as real, persisted episodes of the tenant; with
   * `testRunId`, its test-split episodes fill that evaluation run (baselineRunRequest).
   */
  run(caller: EpisodeCaller, taskIds?: string[], testRunId?: string): Promise<BaselineResponseDto> {
    const known = this.catalog.list().map((entry) => entry.task.id);
    const ids = taskIds && taskIds.length > 0 ? [...new Set(taskIds)] : known;
    const unknown = ids.filter((id) => !known.includes(id));
    if (unknown.length > 0) {
      throw new InvalidFieldError('task_ids', `unknown task(s): ${unknown.join(', ')}; known tasks: ${known.join(', ')}`);
    }
    return this.quota.run(caller.tenantId, () => runBaseline(this.environmentFor(caller), ids, this.config, testRunId));
  }

  private environmentFor(caller: EpisodeCaller): BaselineEnvironment {
    return {
      reset: (taskId, seed, variant, runId) =>
        this.episodes.reset(caller, runId === undefined ? { task_id: taskId, seed, variant, agent: BASELINE_POLICY } : { run_id: runId, task_id: taskId, seed, trial: 0 }, 'baseline'),
      step: (episodeId, action) => this.episodes.step(caller, episodeId, action, undefined, 'baseline'),
      grade: (episodeId) => this.episodes.grade(caller, episodeId),
    };
  }
}
