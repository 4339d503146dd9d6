/* eslint-disable no-console */
import { readCommandLine } from '../cli/command-line';
import { FEEDBACK_MODES } from '../../src/episodes/episode.repository';
import { canonicalTasks } from '../../src/tasks/task-files';
import { AGENTS, agentTable, harmCases, harmTable, playAgent } from './agents';
import { allFamilyFigures, familyTable } from './families';
import { allShortcutFigures, SHORTCUT_BOUNDS, shortcutBoundBreaches, shortcutTable } from './shortcuts';
import { VALIDITY_COMMAND } from './validity.command';
import { disagreementTable, measureAllDrawn } from './drawn-suite';
import { isGraderVersion } from '../../src/engine/graders';
import { failureReport, loadFixtureSets, measureTask, unmeasured, validityTable } from './validity-suite';

/** `npm run validity`: see validity.command.ts, or `npm run validity -- --help`. */
function main(): void {
  const { values } = readCommandLine(VALIDITY_COMMAND);
  const grader = values.grader;
  if (grader !== undefined && !isGraderVersion(grader)) {
    console.error(`validity: grader version ${grader} is not in the registry (src/engine/graders/index.ts)`);
    process.exit(2);
  }
  const tasks = canonicalTasks().map((loaded) => loaded.task);
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const sets = loadFixtureSets();
  const results = sets.flatMap(({ set, fixtures }) => fixtures.map((fixture) => measureTask(set, byId.get(fixture.task_id)!, fixture, grader)));
  // A family without a set's fixtures gets a "not measured" row, never silence.
  console.log(validityTable(results, unmeasured(sets)));
  // The sets written on drawn instances (train and test seeds), and how their writers read each instance.
  const drawn = measureAllDrawn(undefined, grader);
  console.log(`\n${validityTable(drawn.results)}\n\n${disagreementTable(drawn.disagreements)}`);
  console.log(`\n${agentTable(Object.keys(AGENTS).flatMap((agent) => FEEDBACK_MODES.flatMap((mode) => tasks.map((task) => playAgent(agent, task, mode)))))}`);
  console.log(`\n${harmTable(tasks.flatMap(harmCases))}`);
  console.log(`\n${familyTable(allFamilyFigures(values.seeds))}`);
  // Learned on train seeds, played on test seeds, deciding without the knowledge base (tools/validity/shortcuts.ts).
  const shortcuts = allShortcutFigures();
  const breaches = shortcuts.flatMap((f) => shortcutBoundBreaches(f));
  const { mostCommon, bestFixed, bestSingleFeature, shareAtOne } = SHORTCUT_BOUNDS;
  console.log(`\nShortcut agents (train → test)\n\n${shortcutTable(shortcuts)}`);
  console.log(`\nTarget bounds (test mean): most-common ≤ ${mostCommon}, best-fixed ≤ ${bestFixed}, best-single-feature ≤ ${bestSingleFeature}, 1.0 on at most ${100 * shareAtOne}% of test seeds each: ${breaches.length === 0 ? 'met' : `not met:\n${breaches.map((b) => `- ${b}`).join('\n')}`}`);
  if (values.failures) console.log(`\n${failureReport([...results, ...drawn.results])}`);
}

main();
