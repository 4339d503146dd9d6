import { readFileSync, writeFileSync } from 'node:fs';
import { canonicalTasks } from '../../src/tasks/task-files';
import { REQUIRED_SETS, VERDICT_PIN_FILE, loadFixtureSets, measureTask, stillFails, unmeasured, type TaskValidity } from './validity-suite';

/*
 * The reply grader's validity, on every fixture set of every registered family (src/families/<id>/fixtures/<set>.json;
 * `npm run validity` prints the table):
 * per task, correct replies missing a detail stay at or under 5%, and no reply is credited with a detail it does
 * not tell. The current grader's verdicts are pinned, reply by reply (test/validity/grader-v2-verdicts.json, named
 * for the version it first pinned; version 4's since issue 23, which differ from version 3's in nine verdicts, one a
 * detail now credited and eight a reason for one not credited): a released version is frozen as a whole by
 * tools/versions, and this says which reply's verdict moved. UPDATE_GRADER_VERDICTS=1 rewrites the pin (with a new version, or for new fixtures).
 */

const tasks = new Map(canonicalTasks().map((loaded) => [loaded.task.id, loaded.task]));
const sets = loadFixtureSets();
const results: TaskValidity[] = sets.flatMap(({ set, fixtures }) => fixtures.map((fixture) => measureTask(set, tasks.get(fixture.task_id)!, fixture)));

// A family merges with its two main sets (TASKS.md: a development set and an exam set written blind on drawn
// instances); before that it shows as "not measured" in `npm run validity`, and this fails. The other sets were
// one-off probes of the first families: measured where a family has them, their verdicts pinned below.
it('has the dev and blind sets for every registered family, with at least 40 correct and 40 adversarial replies per task', () => {
  expect(unmeasured(sets).filter((m) => (REQUIRED_SETS as readonly string[]).includes(m.set))).toEqual([]);
  for (const r of results) {
    const least = r.set === 'dev' || r.set === 'blind' ? 40 : r.set === 'probe' ? 30 : 3;
    expect([r.set, r.taskId, r.correct.length >= least, r.adversarial.length >= least]).toEqual([r.set, r.taskId, true, true]);
  }
});

it.each(results.map((r) => [`${r.set}/${r.taskId}`, r] as const))('%s: false negatives on correct replies at most 5%%', (_name, r) => {
  const missed = r.falseNegatives.filter((o) => r.correct.includes(o)).map((o) => o.id);
  // The red team's handful of correct replies were each written to expose one miss: none may remain.
  expect(missed.length / r.correct.length).toBeLessThanOrEqual(r.set === 'redteam' ? 0 : 0.05);
});

it.each(results.map((r) => [`${r.set}/${r.taskId}`, r] as const))('%s: no detail credited that the reply does not tell', (_name, r) => {
  expect(r.unearned.map((o) => `${o.id}: ${o.details.filter((d) => d.covered && !o.told.includes(d.id)).map((d) => d.id).join(', ')}`)).toEqual([]);
});

it.each(results.map((r) => [`${r.set}/${r.taskId}`, r] as const))('%s: adversarial replies that tell nothing earn nothing', (_name, r) => {
  const nothingTold = r.adversarial.filter((o) => o.told.length === 0 && o.knownFailure === undefined);
  expect(nothingTold.length).toBeGreaterThan(0);
  expect(nothingTold.filter((o) => o.earnedMilli > 0).map((o) => o.id)).toEqual([]);
});

it.each(results.map((r) => [`${r.set}/${r.taskId}`, r] as const))('%s: no correct reply is penalised', (_name, r) => {
  expect(r.correct.filter((o) => o.penalties.length > 0).map((o) => `${o.id}: ${o.penalties.join(', ')}`)).toEqual([]);
});

it('every harmful reply is penalised, except promises of unauthorised goodwill (a class the grader does not yet judge)', () => {
  const harmful = results.flatMap((r) => r.harmful.map((o) => ({ ...o, where: `${r.set}/${r.taskId}/${o.id}` })));
  expect(harmful.length).toBeGreaterThanOrEqual(30);
  expect(harmful.filter((o) => o.kind !== 'forbidden_promise' && o.penalties.length === 0).map((o) => o.where)).toEqual([]);
});

it('known failures are only in the red team set, each explained, and each still fails (a fixed one loses its mark)', () => {
  for (const r of results) {
    for (const o of r.known) {
      expect([r.set, o.id, o.knownFailure!.length > 20, stillFails(o)]).toEqual(['redteam', o.id, true, true]);
    }
  }
});

it("the current grader's verdicts on every fixture reply are the pinned ones", () => {
  const verdicts = Object.fromEntries(
    results.flatMap((r) =>
      [...r.correct, ...r.adversarial].map((o) => [`${r.set}/${r.taskId}/${o.id}`, o.details.map((d) => `${d.id}:${d.covered ? 'covered' : d.reason}`)]),
    ),
  );
  if (process.env.UPDATE_GRADER_VERDICTS === '1') writeFileSync(VERDICT_PIN_FILE, `${JSON.stringify(verdicts, null, 1)}\n`);
  expect(verdicts).toEqual(JSON.parse(readFileSync(VERDICT_PIN_FILE, 'utf8')));
});
