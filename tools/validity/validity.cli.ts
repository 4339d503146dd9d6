/* eslint-disable no-console */
import { DEFAULT_TASKS_DIR } from '../../src/config/app-config';
import { loadTaskFiles } from '../../src/tasks/task-files';
import { failureReport, loadFixtureSets, measureTask, validityTable } from './validity-suite';

/**
 * `npm run validity`: the validity table of the reply grader on every fixture set; `--failures` also lists each
 * failing reply with the detail, the reason and the sentence.
 */
const tasks = new Map(loadTaskFiles(DEFAULT_TASKS_DIR).map((loaded) => [loaded.task.id, loaded.task]));
const results = loadFixtureSets().flatMap(({ set, fixtures }) =>
  fixtures.map((fixture) => measureTask(set, tasks.get(fixture.task_id)!, fixture)),
);
console.log(validityTable(results));
if (process.argv.includes('--failures')) console.log(`\n${failureReport(results)}`);
