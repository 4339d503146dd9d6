import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { latestFamilies } from '../families';
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

/** The canonical instance of every registered family (src/families/<id>/canonical.json), validated. */
export function canonicalTasks(): LoadedTask[] {
  return latestFamilies().map((family) => parseTask(`src/families/${family.id}/canonical.json`, family.canonical));
}

/** The tasks a catalogue serves: the task files of TASKS_DIR when it is set, else the families' canonical instances. */
export function catalogueTasks(tasksDir: string | null): LoadedTask[] {
  return tasksDir === null ? canonicalTasks() : loadTaskFiles(tasksDir);
}

/**
 * Reads every task in a folder: each `<id>.json`, and each `<id>/canonical.json` (a folder of family folders, as
 * src/families is); the name must be the task id.
 */
export function loadTaskFiles(dir: string): LoadedTask[] {
  let names: string[];
  try {
    const entries = readdirSync(dir, { withFileTypes: true });
    names = [
      ...entries.filter((e) => e.isFile() && e.name.endsWith('.json')).map((e) => e.name),
      ...entries.filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'canonical.json'))).map((e) => join(e.name, 'canonical.json')),
    ].sort();
  } catch (error) {
    throw new TaskFileError(`cannot read task folder ${dir}: ${(error as Error).message}`);
  }
  if (names.length === 0) throw new TaskFileError(`no task files (*.json or */canonical.json) in ${dir}`);
  return names.map((name) => {
    const id = name === 'canonical.json' || basename(name) !== 'canonical.json' ? basename(name, '.json') : basename(dirname(name));
    const file = join(dir, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new TaskFileError(`${file}: not valid JSON: ${(error as Error).message}`);
    }
    const loaded = parseTask(file, raw);
    if (loaded.task.id !== id) {
      throw new TaskFileError(`${file}: id: "${loaded.task.id}" must match the file (or folder) name "${id}"`);
    }
    return loaded;
  });
}

/** The catalogue's order: easy first, then medium and hard; by id within a difficulty. */
export function inCatalogueOrder(tasks: LoadedTask[]): LoadedTask[] {
  const order = { easy: 0, medium: 1, hard: 2 };
  return [...tasks].sort((a, b) => order[a.task.difficulty] - order[b.task.difficulty] || a.task.id.localeCompare(b.task.id));
}
