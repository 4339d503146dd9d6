import { measureAllDrawn } from './validity/drawn-suite';
import { validityTable, failureReport, loadFixtureSets, measureTask } from './validity/validity-suite';
import { canonicalTasks } from '../src/tasks/task-files';
const v = Number(process.argv[2] ?? 5) as 3 | 4 | 5 | 6 | 7 | 8 | 9;
const { results } = measureAllDrawn(undefined, v);
const byId = new Map(canonicalTasks().map((l) => [l.task.id, l.task]));
const canon = loadFixtureSets().flatMap(({ set, fixtures }) => fixtures.map((f) => measureTask(set, byId.get(f.task_id)!, f, v)));
console.log(validityTable([...canon, ...results]));
if (process.argv[3]) console.log(failureReport([...canon, ...results].filter((r) => r.taskId.startsWith(process.argv[3]) && (!process.argv[4] || r.set === process.argv[4]))));
