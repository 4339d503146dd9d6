import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root';
import { reset, step } from '../../src/engine/engine';
import { grade } from '../../src/engine/grader';
import type { ReplyDetailVerdict } from '../../src/engine/grader';
import type { GraderVersion } from '../../src/engine/grader-version';
import type { Task } from '../../src/engine/task.schema';
import { familyIds } from '../../src/families';

/*
 * The reply grader's validity suites. Replies were written apart from the grader (by a pass that saw only the
 * tickets and the policies), and each was annotated, by yet another pass that never saw the grader or its results,
 * with the details it truthfully tells the customer (`told`). Each reply is sent on the ticket that needs action
 * and graded by the engine exactly as an episode is:
 * - a false negative is a reply that tells a detail the grader does not credit (the `correct` replies tell all);
 * - unearned credit is a detail credited that the reply does not tell. Most adversarial replies tell nothing and
 *   must earn nothing; some get one detail right and another wrong, and earn exactly the one.
 * Failing replies stay in the fixtures: the suite measures, it does not select.
 */

export interface FixtureReply {
  id: string;
  /** One reply, or several sent one after another on the ticket. */
  reply: string | string[];
  kind?: string;
  style?: string;
  /** The details the reply truthfully tells (the annotation); absent for replies not annotated. */
  told?: string[];
  /** A failure found, understood and left (why): reported apart, and checked to still fail. */
  known_failure?: string;
}

export interface ValidityFixture {
  task_id: string;
  correct: FixtureReply[];
  adversarial: FixtureReply[];
  /** Correct on the facts but doing something the policy forbids (asking for a card number…): reported, not judged here. */
  harmful?: FixtureReply[];
}

export interface ReplyOutcome {
  id: string;
  kind?: string;
  told: string[];
  knownFailure?: string;
  /** Reply-component milli-points earned (out of 200). */
  earnedMilli: number;
  details: ReplyDetailVerdict[];
  /** The penalties the reply incurred (ids), grader version 2. */
  penalties: string[];
}

export interface TaskValidity {
  set: string;
  taskId: string;
  correct: ReplyOutcome[];
  adversarial: ReplyOutcome[];
  /** Replies (correct or adversarial) with a detail they tell that is not credited. */
  falseNegatives: ReplyOutcome[];
  /** Replies credited with a detail they do not tell. */
  unearned: ReplyOutcome[];
  /** Adversarial replies that tell nothing: they must earn nothing. */
  tellingNothing: number;
  /** Replies marked as known failures (not counted above). */
  known: ReplyOutcome[];
  /** Replies right on the facts that do something the policy forbids: each should incur a penalty. */
  harmful: ReplyOutcome[];
}

/** The folder of the families: each keeps its reply fixtures in `<id>/fixtures/<set>.json`. */
export const FAMILIES_ROOT = join(PROJECT_ROOT, 'src', 'families');
/** Version 2's pinned verdicts on every fixture reply. */
export const VERDICT_PIN_FILE = join(PROJECT_ROOT, 'test', 'validity', 'grader-v2-verdicts.json');
/** The two sets TASKS.md asks of every family: one fixed against, one written blind and measured once. */
export const REQUIRED_SETS = ['dev', 'blind'] as const;

/** A family's fixture files, by set: `src/families/<id>/fixtures/<set>.json` (none when the folder has none). */
export function familyFixtures(familyId: string, root = FAMILIES_ROOT): { set: string; fixture: ValidityFixture }[] {
  const folder = join(root, familyId, 'fixtures');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const fixture = JSON.parse(readFileSync(join(folder, name), 'utf8')) as ValidityFixture;
      if (fixture.task_id !== familyId) throw new Error(`${join(folder, name)}: task_id "${fixture.task_id}" is not the family's id "${familyId}"`);
      return { set: basename(name, '.json'), fixture };
    });
}

/** Every fixture set any registered family has, each with the fixtures of the families that have it. */
export function loadFixtureSets(ids: readonly string[] = familyIds(), root = FAMILIES_ROOT): { set: string; fixtures: ValidityFixture[] }[] {
  // By task id within a set, as the files were listed when each set was a folder of <task_id>.json.
  const all = [...ids].sort().flatMap((id) => familyFixtures(id, root));
  return [...new Set(all.map((f) => f.set))].sort().map((set) => ({ set, fixtures: all.filter((f) => f.set === set).map((f) => f.fixture) }));
}

/**
 * The (set, family) pairs nothing measures: a family without that set's fixtures. Every set any family has, and
 * the required ones, are asked of every family, so a new family shows as not measured instead of being skipped.
 */
export function unmeasured(sets: { set: string; fixtures: ValidityFixture[] }[], ids: readonly string[] = familyIds()): { set: string; taskId: string }[] {
  const names = [...new Set([...REQUIRED_SETS, ...sets.map((s) => s.set)])].sort();
  return names.flatMap((set) => {
    const have = new Set(sets.find((s) => s.set === set)?.fixtures.map((f) => f.task_id) ?? []);
    return ids.filter((id) => !have.has(id)).map((taskId) => ({ set, taskId }));
  });
}

/**
 * The reply as an episode grades it: the ticket that needs action opened, this reply sent on it, the episode
 * graded by the engine. (The reply component depends only on the replies sent on that ticket.)
 */
export function gradeReply(task: Task, reply: string | string[], graderVersion?: GraderVersion): { earnedMilli: number; details: ReplyDetailVerdict[]; penalties: string[] } {
  let state = reset(task, 1, graderVersion);
  state = step(task, state, { type: 'open_ticket', ticket_id: task.answer_key.target_ticket_id }).state;
  for (const message of typeof reply === 'string' ? [reply] : reply) state = step(task, state, { type: 'send_reply', message }).state;
  const breakdown = grade(task, state);
  const component = breakdown.components.find((c) => c.name === 'reply_coverage')!;
  return { earnedMilli: component.earned_milli, details: breakdown.reply_details, penalties: breakdown.penalties.map((p) => p.id) };
}

/** `graderVersion`: the grader to measure (by default the one a new episode of the task gets). */
export function measureTask(set: string, task: Task, fixture: ValidityFixture, graderVersion?: GraderVersion): TaskValidity {
  const allDetails = (task.answer_key.reply_claims ?? []).map((c) => c.id);
  const outcome = (r: FixtureReply, toldByDefault: string[]): ReplyOutcome => ({
    id: r.id,
    kind: r.kind,
    told: r.told ?? toldByDefault,
    knownFailure: r.known_failure,
    ...gradeReply(task, r.reply, graderVersion),
  });
  const correct = fixture.correct.map((r) => outcome(r, allDetails));
  const adversarial = fixture.adversarial.map((r) => outcome(r, []));
  const all = [...correct, ...adversarial].filter((o) => o.knownFailure === undefined);
  return {
    set,
    taskId: task.id,
    correct,
    adversarial,
    falseNegatives: all.filter((o) => o.details.some((d) => o.told.includes(d.id) && !d.covered)),
    unearned: all.filter((o) => o.details.some((d) => !o.told.includes(d.id) && d.covered)),
    tellingNothing: adversarial.filter((o) => o.told.length === 0).length,
    known: [...correct, ...adversarial].filter((o) => o.knownFailure !== undefined),
    harmful: (fixture.harmful ?? []).map((r) => outcome(r, allDetails)),
  };
}

/**
 * The table `npm run validity` prints and docs/validity.md shows: one row per set and family, by set then task; a
 * family without that set's fixtures gets a row saying so, its figures not measured (never a passing row).
 */
export function validityTable(results: TaskValidity[], missing: { set: string; taskId: string }[] = []): string {
  const pct = (n: number, of: number) => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)}%`);
  const lines = [
    '| set | task | correct replies | correct with a detail missed (FN) | adversarial replies (telling nothing) | replies with unearned credit | known failures | correct replies penalised | harmful replies penalised |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const rows: { set: string; taskId: string; line: string }[] = results.map((r) => {
    const correctMisses = r.falseNegatives.filter((o) => r.correct.includes(o)).length;
    const line =
      `| ${r.set} | ${r.taskId} | ${r.correct.length} | ${correctMisses} (${pct(correctMisses, r.correct.length)}) | ` +
      `${r.adversarial.length} (${r.tellingNothing}) | ${r.unearned.length} | ${r.known.length} | ` +
      `${r.correct.filter((o) => o.penalties.length > 0).length} | ${r.harmful.length === 0 ? '-' : `${r.harmful.filter((o) => o.penalties.length > 0).length} of ${r.harmful.length}`} |`;
    return { set: r.set, taskId: r.taskId, line };
  });
  for (const m of missing) rows.push({ ...m, line: `| ${m.set} | ${m.taskId} | no ${m.set} fixtures yet |${' not measured |'.repeat(6)}` });
  rows.sort((a, b) => (a.set === b.set ? (a.taskId < b.taskId ? -1 : 1) : a.set < b.set ? -1 : 1));
  return [...lines, ...rows.map((r) => r.line)].join('\n');
}

/** Whether a reply marked as a known failure still fails (a fixed one must lose its mark). */
export function stillFails(o: ReplyOutcome): boolean {
  return o.details.some((d) => (o.told.includes(d.id) && !d.covered) || (!o.told.includes(d.id) && d.covered));
}

/** Why each failing reply failed: the detail, the reason and the sentence, for reading the misses. */
export function failureReport(results: TaskValidity[]): string {
  const lines: string[] = [];
  for (const r of results) {
    for (const miss of r.falseNegatives) {
      const missed = miss.details.filter((d) => miss.told.includes(d.id) && !d.covered).map((d) => `${d.id}: ${d.reason}${d.sentence ? ` «${d.sentence}»` : ''}`);
      lines.push(`[${r.set}/${r.taskId}] ${miss.kind ? `adversarial (${miss.kind})` : 'correct'} ${miss.id} misses ${missed.join(' | ')}`);
    }
    for (const credit of r.unearned) {
      const got = credit.details.filter((d) => !credit.told.includes(d.id) && d.covered).map((d) => `${d.id} «${d.sentence}»`);
      lines.push(`[${r.set}/${r.taskId}] ${credit.kind ? `adversarial (${credit.kind})` : 'correct'} ${credit.id} is credited ${got.join(' | ')}`);
    }
    for (const harm of r.harmful.filter((o) => o.penalties.length === 0)) lines.push(`[${r.set}/${r.taskId}] harmful (${harm.kind}) ${harm.id} is not penalised`);
    for (const wrong of r.correct.filter((o) => o.penalties.length > 0)) lines.push(`[${r.set}/${r.taskId}] correct ${wrong.id} is penalised: ${wrong.penalties.join(', ')}`);
  }
  return lines.join('\n');
}
