import { canonicalJson } from '../../src/common/canonical-json';
import { DEFAULT_TASKS_DIR, loadConfig } from '../../src/config/app-config';
import type { Action } from '../../src/engine/actions';
import { step } from '../../src/engine/engine';
import { grade } from '../../src/engine/grader';
import type { EpisodeRecord, StepWrite } from '../../src/episodes/episode.repository';
import { PrivateSplitKeys } from '../../src/tasks/private-split';
import { TaskCatalog } from '../../src/tasks/task-catalog.service';
import type { TaskVersionRepository } from '../../src/tasks/task-version.repository';

/** The real task catalogue over the real task files, with its version store in memory instead of SQLite. */
export async function taskCatalogInMemory(tasksDir = DEFAULT_TASKS_DIR, env: Record<string, string> = {}) {
  const stored = new Map<string, { taskId: string; version: string; contentJson: string }>();
  const store: Pick<TaskVersionRepository, 'saveIfMissing' | 'listAll' | 'findContent'> = {
    async saveIfMissing(taskId, version, contentJson) {
      if (!stored.has(`${taskId}@${version}`)) stored.set(`${taskId}@${version}`, { taskId, version, contentJson });
    },
    async listAll() {
      return [...stored.values()];
    },
    async findContent(taskId, version) {
      return stored.get(`${taskId}@${version}`)?.contentJson ?? null;
    },
  };
  const config = loadConfig({ TASKS_DIR: tasksDir, LOG_LEVEL: 'silent', ...env });
  const catalog = new TaskCatalog(config, store as TaskVersionRepository, new PrivateSplitKeys(config));
  await catalog.onModuleInit();
  return { catalog, stored };
}

/** A step of billing_duplicate_charge as the service computes it, from the copy given (the repository specs' steps). */
export async function stepped(from: EpisodeRecord, action: Action): Promise<StepWrite> {
  const { catalog } = await taskCatalogInMemory();
  const task = catalog.latest('billing_duplicate_charge').task;
  const result = step(task, from.state, action);
  const entry = result.state.history.at(-1)!;
  return { state: result.state, grade: grade(task, result.state), entry, actionJson: canonicalJson(entry.action), response: { step: result.state.step_count } };
}
