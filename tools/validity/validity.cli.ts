/* eslint-disable no-console */
import { DEFAULT_TASKS_DIR } from '../../src/config/app-config';
import { FEEDBACK_MODES } from '../../src/episodes/episode.repository';
import { loadTaskFiles } from '../../src/tasks/task-files';
import { AGENTS, agentTable, harmCases, harmTable, playAgent } from './agents';
import { allFamilyFigures, familyTable } from './families';
import { failureReport, loadFixtureSets, measureTask, validityTable } from './validity-suite';

/**
 * `npm run validity`: the validity table of the reply grader on every fixture set, then the agents that must not
 * score (blind, stuffing, do-nothing) against the scripted solutions in both feedback modes, the reward of each
 * harmful step, and the task families' proofs over 1,000 seeds each (`--seeds n` for another count); `--failures`
 * also lists each failing reply with the detail, the reason and the sentence.
 */
const tasks = loadTaskFiles(DEFAULT_TASKS_DIR).map((loaded) => loaded.task);
const byId = new Map(tasks.map((task) => [task.id, task]));
const results = loadFixtureSets().flatMap(({ set, fixtures }) => fixtures.map((fixture) => measureTask(set, byId.get(fixture.task_id)!, fixture)));
console.log(validityTable(results));
console.log(`\n${agentTable(Object.keys(AGENTS).flatMap((agent) => FEEDBACK_MODES.flatMap((mode) => tasks.map((task) => playAgent(agent, task, mode)))))}`);
console.log(`\n${harmTable(tasks.flatMap(harmCases))}`);
// The families at scale: solvable, varied, not memorisable, hard where they say (--seeds, default 1000).
const seedsFlag = process.argv.indexOf('--seeds');
console.log(`\n${familyTable(allFamilyFigures(seedsFlag === -1 ? 1000 : Number(process.argv[seedsFlag + 1])))}`);
if (process.argv.includes('--failures')) console.log(`\n${failureReport(results)}`);
