import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { SPLIT_RULE, families, familyVersion, generatorVersionId, latestFamily, parseGeneratorVersion, type TaskFamily } from '../families';
import type { Task } from '../engine/task.schema';
import { canonicalJson } from '../common/canonical-json';
import { ConflictError } from '../common/errors/domain-errors';
import type { TaskSummaryDto } from './dto/task-summary.dto';
import { catalogueTasks, inCatalogueOrder, parseTask, type LoadedTask } from './task-files';
import { TaskVersionRepository } from './task-version.repository';
import { PrivateSplitKeys, privateSeed } from './private-split';

export class UnknownTaskError extends Error {
  constructor(
    readonly taskId: string,
    readonly known: string[],
  ) {
    super(`unknown task "${taskId}"; known tasks: ${known.join(', ')}`);
  }
}

/** An episode runs a task version this process has not loaded (another process stored it after this one started). */
export class TaskVersionNotLoadedError extends Error {
  constructor(
    readonly taskId: string,
    readonly version: string,
  ) {
    super(`task version ${taskId}@${version} is not loaded`);
  }
}

/** An episode names a generator version this release does not have (a newer process drew it): a 409 everywhere. */
export class GeneratorNotAvailableError extends ConflictError {
  constructor(
    readonly taskId: string,
    readonly version: string,
  ) {
    super(`generator ${version} of task ${taskId} is not part of this release`);
  }
}

/** Generated instances kept in memory: enough for every active episode's steps to find theirs without drawing again. */
const INSTANCE_CACHE_SIZE = 1024;

/**
 * Task files (TASKS_DIR, or each registered family's canonical instance) are synced at start-up; episodes then resolve their task by the exact version they ran: a task
 * file's content hash (the canonical instance), or a family's generator version ("g1") with the episode's seed.
 */
@Injectable()
export class TaskCatalog implements OnModuleInit {
  private readonly logger = new Logger(TaskCatalog.name);
  private current = new Map<string, LoadedTask>();
  /** Parsed tasks by `id@version`, including versions no longer on disk. Tasks are small and few. */
  private readonly versions = new Map<string, Task>();
  /** Generated instances by `id@version#seed`, least recently used first (drawn again when evicted). */
  private readonly instances = new Map<string, Task>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: TaskVersionRepository,
    private readonly privateSplit: PrivateSplitKeys,
  ) {}

  async onModuleInit(): Promise<void> {
    const loaded = catalogueTasks(this.config.tasksDir);
    for (const entry of loaded) {
      await this.repository.saveIfMissing(entry.task.id, entry.version, entry.contentJson);
      this.versions.set(key(entry.task.id, entry.version), entry.task);
    }
    this.current = new Map(loaded.map((entry) => [entry.task.id, entry]));
    // Each generator version is a task version too (episodes reference one); its content names the generator.
    for (const family of families()) {
      const content = canonicalJson({ generator: { family: family.id, version: family.generatorVersion } });
      await this.repository.saveIfMissing(family.id, generatorVersionId(family.generatorVersion), content);
    }
    // Older versions too, so stepping any episode never waits on a task lookup (there are only a handful).
    for (const row of await this.repository.listAll()) {
      if (this.versions.has(key(row.taskId, row.version)) || parseGeneratorVersion(row.version) !== null) continue;
      try {
        this.versions.set(key(row.taskId, row.version), parseTask(`task_versions ${row.taskId}@${row.version}`, JSON.parse(row.contentJson)).task);
      } catch (error) {
        this.logger.warn(`stored task version ${row.taskId}@${row.version} no longer validates: ${(error as Error).message}`);
      }
    }
    this.logger.debug(`loaded ${loaded.length} task(s): ${loaded.map((e) => `${e.task.id}@${e.version}`).join(', ')}`);
  }

  /** Current tasks, easy first, then by id. */
  list(): LoadedTask[] {
    return inCatalogueOrder([...this.current.values()]);
  }

  /** What clients may know about each task: never the answer key. */
  summaries(): TaskSummaryDto[] {
    return this.list().map(({ task, version }) => {
      const family = latestFamily(task.id);
      return {
        id: task.id,
        difficulty: task.difficulty,
        title: task.title,
        instruction: task.instruction,
        max_steps: task.max_steps,
        max_steps_range: {
          min: Math.min(task.max_steps, family?.maxSteps.min ?? task.max_steps),
          max: Math.max(task.max_steps, family?.maxSteps.max ?? task.max_steps),
        },
        version,
        family: family
          ? {
              domain: family.domain,
              generator_version: generatorVersionId(family.generatorVersion),
              distinct_instances: family.distinctInstances,
              split_rule: SPLIT_RULE,
              varies: family.varies,
              hard: family.hard,
            }
          : null,
      };
    });
  }

  /** The current version of a task, for new episodes. */
  latest(taskId: string): LoadedTask {
    const entry = this.current.get(taskId);
    if (!entry) throw new UnknownTaskError(taskId, [...this.current.keys()].sort());
    return entry;
  }

  /**
   * The exact version an episode ran, from memory: every version stored when this process started is loaded,
   * so this never waits. A version stored since (by another process on the same file) needs `fetchVersion`.
   */
  version(taskId: string, version: string): Task {
    const task = this.versions.get(key(taskId, version));
    if (!task) throw new TaskVersionNotLoadedError(taskId, version);
    return task;
  }

  /** The family drawing new instances of a task (its newest generator), or null when the task has none. */
  family(taskId: string): TaskFamily | null {
    this.latest(taskId);
    return latestFamily(taskId) ?? null;
  }

  /** The id of the private split's current key, which new private-split episodes are drawn with; null: no private split. */
  privateSplitKeyId(): string | null {
    return this.privateSplit.current?.id ?? null;
  }

  /**
   * The instance an episode runs, from memory: the task file version it ran, or its generator's instance for its
   * seed (drawn on demand and kept; nothing is loaded per stored episode). With `privateSplitKeyId` (a private-split
   * episode) the generator draws from the seed derived under that key, never from the public seed itself;
   * PrivateSplitKeyNotHeldError when this server does not hold the key.
   */
  instance(taskId: string, version: string, seed: number, privateSplitKeyId: string | null): Task {
    const generator = parseGeneratorVersion(version);
    if (generator === null) return this.version(taskId, version);
    const id = `${key(taskId, version)}#${privateSplitKeyId === null ? '' : `${privateSplitKeyId}:`}${seed}`;
    const cached = this.instances.get(id);
    if (cached) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.instances.delete(id);
      this.instances.set(id, cached);
      return cached;
    }
    const family = familyVersion(taskId, generator);
    if (!family) throw new GeneratorNotAvailableError(taskId, version);
    const drawnFrom = privateSplitKeyId === null ? seed : privateSeed(this.privateSplit.require(privateSplitKeyId), taskId, seed);
    const task = family.generate(drawnFrom);
    this.instances.set(id, task);
    if (this.instances.size > INSTANCE_CACHE_SIZE) this.instances.delete(this.instances.keys().next().value!);
    return task;
  }

  /** The instance an episode runs, reading a task file version from the database if another process stored it. */
  async fetchInstance(taskId: string, version: string, seed: number, privateSplitKeyId: string | null): Promise<Task> {
    return parseGeneratorVersion(version) === null ? this.fetchVersion(taskId, version) : this.instance(taskId, version, seed, privateSplitKeyId);
  }

  /** The exact version an episode ran, from memory, or read from the database and kept. */
  async fetchVersion(taskId: string, version: string): Promise<Task> {
    const cached = this.versions.get(key(taskId, version));
    if (cached) return cached;
    const content = await this.repository.findContent(taskId, version);
    if (content === null) throw new Error(`task version ${taskId}@${version} is missing from the database`);
    const task = parseTask(`task_versions ${taskId}@${version}`, JSON.parse(content)).task;
    this.versions.set(key(taskId, version), task);
    return task;
  }
}

function key(taskId: string, version: string): string {
  return `${taskId}@${version}`;
}
