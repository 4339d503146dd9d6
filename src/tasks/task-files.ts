import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describeTaskIssues, taskSchema, type Task } from '../engine/task.schema';
import { canonicalJson, sha256Hex } from '../common/canonical-json';

export interface LoadedTask {
  task: Task;
  /** Content hash of the validated task: changes whenever anything in the file that matters changes. */
  version: string;
  contentJson: string;
}

export class TaskFileError extends Error {}

/** Validates one task document; errors name the file and the field. */
export function parseTask(source: string, raw: unknown): LoadedTask {
  const parsed = taskSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TaskFileError(`${source}: invalid task:\n${describeTaskIssues(parsed.error).map((l) => `  ${l}`).join('\n')}`);
  }
  const contentJson = canonicalJson(parsed.data);
  return { task: parsed.data, version: sha256Hex(contentJson).slice(0, 16), contentJson };
}

/** Reads every `*.json` task in a folder; the file name must be the task id. */
export function loadTaskFiles(dir: string): LoadedTask[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    throw new TaskFileError(`cannot read task folder ${dir}: ${(error as Error).message}`);
  }
  if (names.length === 0) throw new TaskFileError(`no task files (*.json) in ${dir}`);
  return names.map((name) => {
    const file = join(dir, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new TaskFileError(`${file}: not valid JSON: ${(error as Error).message}`);
    }
    const loaded = parseTask(file, raw);
    if (loaded.task.id !== basename(name, '.json')) {
      throw new TaskFileError(`${file}: id: "${loaded.task.id}" must match the file name "${basename(name, '.json')}"`);
    }
    return loaded;
  });
}

/** The catalogue's order: easy first, then medium and hard; by id within a difficulty. */
export function inCatalogueOrder(tasks: LoadedTask[]): LoadedTask[] {
  const order = { easy: 0, medium: 1, hard: 2 };
  return [...tasks].sort((a, b) => order[a.task.difficulty] - order[b.task.difficulty] || a.task.id.localeCompare(b.task.id));
}
