import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { GraderVersion } from '../../src/engine/grader-version';
import type { Task } from '../../src/engine/task.schema';
import { familyIds, familyVersion, latestFamily, parseGeneratorVersion } from '../../src/families';
import { FAMILIES_ROOT, measureTask, type FixtureReply, type TaskValidity } from './validity-suite';

/*
 * Reply fixtures on drawn instances (issue 23): each set holds, per family, a dozen instances drawn from train and
 * test seeds, and for each the correct and adversarial replies a writer produced from the observations alone (the
 * brief they followed is committed beside the sets, tools/validity/briefs/). A correct reply tells everything the
 * writer judged the policy requires; an adversarial one tells none of it truthfully and definitely. The grader is
 * measured on them exactly as on the canonical sets (validity-suite.ts): every reply sent on the ticket that needs
 * action of its own instance, graded as an episode is. The writer's own decisions are compared with the answer key:
 * an instance the writer read differently is reported (its replies are still graded against the key).
 */

export interface DrawnInstance {
  seed: number;
  split: 'train' | 'test';
  target_ticket: string;
  decisions: { priority: string; team: string; resolution: string; amount?: number; why?: string };
  must_tell: string[];
  correct: FixtureReply[];
  adversarial: FixtureReply[];
}

export interface DrawnFixture {
  task_id: string;
  set: string;
  /** The generator version whose instances the replies were written on ("g2"). */
  generator: string;
  written_by: string;
  brief: string;
  instances: DrawnInstance[];
}

/** How the writer's reading of an instance compares with the answer key. */
export interface Disagreement {
  taskId: string;
  seed: number;
  field: 'target_ticket' | 'priority' | 'team' | 'resolution' | 'amount';
  writer: string;
  key: string;
}

/** A family's drawn sets: `src/families/<id>/fixtures/drawn/<set>.json`. */
export function drawnFixtures(familyId: string, root = FAMILIES_ROOT): DrawnFixture[] {
  const folder = join(root, familyId, 'fixtures', 'drawn');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const fixture = JSON.parse(readFileSync(join(folder, name), 'utf8')) as DrawnFixture;
      if (fixture.task_id !== familyId) throw new Error(`${join(folder, name)}: task_id "${fixture.task_id}" is not the family's id "${familyId}"`);
      if (fixture.set !== `drawn-${basename(name, '.json')}`) throw new Error(`${join(folder, name)}: set "${fixture.set}" should be "drawn-${basename(name, '.json')}"`);
      return fixture;
    });
}

/** The instance a drawn fixture was written on. */
export function drawnTask(fixture: DrawnFixture, seed: number): Task {
  const version = parseGeneratorVersion(fixture.generator);
  const family = version === null ? undefined : familyVersion(fixture.task_id, version);
  if (!family) throw new Error(`${fixture.task_id}: no generator version "${fixture.generator}" is registered (latest: g${latestFamily(fixture.task_id)?.generatorVersion})`);
  return family.generate(seed);
}

export function disagreements(fixture: DrawnFixture): Disagreement[] {
  return fixture.instances.flatMap((instance) => {
    const key = drawnTask(fixture, instance.seed).answer_key;
    const pairs: [Disagreement['field'], string, string][] = [
      ['target_ticket', instance.target_ticket, key.target_ticket_id],
      ['priority', instance.decisions.priority, key.priority],
      ['team', instance.decisions.team, key.team],
      ['resolution', instance.decisions.resolution, key.resolution.code],
    ];
    // The amount where the writer recorded one beside the resolution (the brief asked for none; some did).
    if (key.resolution.amount !== undefined && instance.decisions.amount !== undefined) pairs.push(['amount', String(instance.decisions.amount), String(key.resolution.amount)]);
    return pairs.filter(([, writer, k]) => writer !== k).map(([field, writer, k]) => ({ taskId: fixture.task_id, seed: instance.seed, field, writer, key: k }));
  });
}

/** The set measured as one row: every instance's replies graded on that instance, pooled. */
export function measureDrawn(fixture: DrawnFixture, graderVersion?: GraderVersion): TaskValidity {
  const parts = fixture.instances.map((instance) =>
    measureTask(fixture.set, drawnTask(fixture, instance.seed), { task_id: fixture.task_id, correct: instance.correct, adversarial: instance.adversarial }, graderVersion),
  );
  const pool = <K extends 'correct' | 'adversarial' | 'falseNegatives' | 'unearned' | 'known' | 'harmful'>(k: K) => parts.flatMap((p) => p[k]) as TaskValidity[K];
  return {
    set: fixture.set,
    taskId: fixture.task_id,
    correct: pool('correct'),
    adversarial: pool('adversarial'),
    falseNegatives: pool('falseNegatives'),
    unearned: pool('unearned'),
    tellingNothing: parts.reduce((n, p) => n + p.tellingNothing, 0),
    known: pool('known'),
    harmful: pool('harmful'),
  };
}

/** Every family's drawn sets, measured. */
export function measureAllDrawn(ids: readonly string[] = familyIds(), graderVersion?: GraderVersion): { results: TaskValidity[]; disagreements: Disagreement[] } {
  const fixtures = ids.flatMap((id) => drawnFixtures(id));
  return { results: fixtures.map((f) => measureDrawn(f, graderVersion)), disagreements: fixtures.flatMap(disagreements) };
}

export function disagreementTable(rows: Disagreement[]): string {
  if (rows.length === 0) return 'Every drawn instance was read by its writer as the answer key reads it (ticket, priority, team, resolution, amount).';
  return [
    '| family | seed | field | writer | answer key |',
    '| --- | ---: | --- | --- | --- |',
    ...rows.map((d) => `| ${d.taskId} | ${d.seed} | ${d.field} | ${d.writer} | ${d.key} |`),
  ].join('\n');
}
