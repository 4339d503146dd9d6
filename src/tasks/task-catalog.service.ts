import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { Task } from '../engine/task.schema';
import type { TaskSummaryDto } from './dto/task-summary.dto';
import { inCatalogueOrder, loadTaskFiles, parseTask, type LoadedTask } from './task-files';
import { TaskVersionRepository } from './task-version.repository';

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

/** Task files are synced at start-up; episodes then resolve their task by the exact version they ran. */
@Injectable()
export class TaskCatalog implements OnModuleInit {
  private readonly logger = new Logger(TaskCatalog.name);
  private current = new Map<string, LoadedTask>();
  /** Parsed tasks by `id@version`, including versions no longer on disk. Tasks are small and few. */
  private readonly versions = new Map<string, Task>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: TaskVersionRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    const loaded = loadTaskFiles(this.config.tasksDir);
    for (const entry of loaded) {
      await this.repository.saveIfMissing(entry.task.id, entry.version, entry.contentJson);
      this.versions.set(key(entry.task.id, entry.version), entry.task);
    }
    this.current = new Map(loaded.map((entry) => [entry.task.id, entry]));
    // Older versions too, so stepping any episode never waits on a task lookup (there are only a handful).
    for (const row of await this.repository.listAll()) {
      if (this.versions.has(key(row.taskId, row.version))) continue;
      try {
        this.versions.set(key(row.taskId, row.version), parseTask(`task_versions ${row.taskId}@${row.version}`, JSON.parse(row.contentJson)).task);
      } catch (error) {
        this.logger.warn(`stored task version ${row.taskId}@${row.version} no longer validates: ${(error as Error).message}`);
      }
    }
    this.logger.log(`loaded ${loaded.length} task(s): ${loaded.map((e) => `${e.task.id}@${e.version}`).join(', ')}`);
  }

  /** Current tasks, easy first, then by id. */
  list(): LoadedTask[] {
    return inCatalogueOrder([...this.current.values()]);
  }

  /** What clients may know about each task: never the answer key. */
  summaries(): TaskSummaryDto[] {
    return this.list().map(({ task, version }) => ({
      id: task.id,
      difficulty: task.difficulty,
      title: task.title,
      instruction: task.instruction,
      max_steps: task.max_steps,
      version,
    }));
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
