import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DEFAULT_TASKS_DIR } from '../../src/config/app-config';
import { PROJECT_ROOT } from '../../src/common/project-root';
import type { Action } from '../../src/engine/actions';
import { families } from '../../src/families';
import { taskSchema, type Task } from '../../src/engine/task.schema';
import { canonicalTasks, loadTaskFiles } from '../../src/tasks/task-files';
import { loadFixtureSets } from '../validity/validity-suite';
import { referenceRun } from '../validity/solvers';
import type { CorpusCase, GraderCorpus } from './version-hashes';

/*
 * Builds the corpus a new grader version is frozen on, from what the project has when it is frozen: the validity
 * fixtures' replies on the tasks they were written for, and for each family and a fixed list of seeds the reference
 * trajectory and varied and hostile variants of it. Written once into tools/versions/corpus/ by
 * `npm run versions:freeze`; a released version's corpus is never rebuilt (fixtures, solvers and task files move on).
 */

/** The seeds of each family's instances in the corpus. */
export const CORPUS_SEEDS = Array.from({ length: 10 }, (_, i) => i);

/** Task versions stored by earlier releases (release 0.1's phrase-list tasks, from its database dump). */
function storedTaskVersions(): Task[] {
  const db = new BetterSqlite3(':memory:');
  try {
    db.exec(readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'upgrade', 'release-0.1.sql'), 'utf8'));
    const rows = db.prepare('SELECT content_json AS content FROM task_versions ORDER BY task_id, version').all() as { content: string }[];
    return rows.map((row) => taskSchema.parse(JSON.parse(row.content)));
  } finally {
    db.close();
  }
}

const open = (task: Task): Action => ({ type: 'open_ticket', ticket_id: task.answer_key.target_ticket_id });

/** The validity fixtures' replies, each sent on the ticket that needs action (as the validity suite grades them). */
function validityCases(key: string, task: Task): CorpusCase[] {
  const out: CorpusCase[] = [];
  for (const { set, fixtures } of loadFixtureSets()) {
    for (const fixture of fixtures.filter((f) => f.task_id === task.id)) {
      for (const [kind, replies] of [['correct', fixture.correct], ['adversarial', fixture.adversarial], ['harmful', fixture.harmful ?? []]] as const) {
        for (const r of replies) {
          const messages = typeof r.reply === 'string' ? [r.reply] : r.reply;
          out.push({ label: `${key}: validity ${set}/${kind}/${r.id}`, task: { snapshot: key }, seed: 1, actions: [open(task), ...messages.map((message): Action => ({ type: 'send_reply', message }))] });
        }
      }
    }
  }
  return out;
}

/** The reference trajectory and variants of it that a grader must judge: negated, hedged, stuffed, harmful, collateral… */
export function trajectoryVariants(task: Task, reference: Action[], seed: number): [string, Action[]][] {
  const replyAt = reference.findIndex((a) => a.type === 'send_reply');
  const reply = replyAt === -1 ? '' : (reference[replyAt] as Extract<Action, { type: 'send_reply' }>).message;
  const withReply = (...messages: string[]): Action[] =>
    replyAt === -1 ? reference : [...reference.slice(0, replyAt), ...messages.map((message): Action => ({ type: 'send_reply', message })), ...reference.slice(replyAt + 1)];
  const target = task.answer_key.target_ticket_id;
  const other = task.inbox.find((t) => t.id !== target);
  const stranger = task.inbox.find((t) => t.customer.account !== task.inbox.find((x) => x.id === target)?.customer.account);
  const resolveAt = reference.findIndex((a) => a.type === 'resolve_ticket');
  const variants: [string, Action[]][] = [
    ['reference', reference],
    ['negated reply', withReply(reply.replace(/\b(will|have|has|is|are|can)\b/g, '$1 not'))],
    ['hedged reply', withReply(`If it is approved, we might do this: ${reply} Once that is confirmed, we would let you know.`)],
    ['asks for secrets', withReply(`${reply} To confirm, please reply with your password, the six-digit code we texted you and the card number with its CVV.`)],
    ['retracted reply', withReply(reply, 'Sorry, please ignore my previous message: none of that applies, and nothing has been done.')],
    ['names another customer', withReply(`${reply} ${stranger ? `${stranger.customer.name} (${stranger.customer.account}) had the same issue.` : ''}`)],
    ['no reply', reference.filter((a) => a.type !== 'send_reply')],
    ['wrong decisions first', [reference[0], { type: 'set_priority', priority: 'low' }, { type: 'route_ticket', team: 'general_support' }, ...reference.slice(1)]],
    ['vague search only', [...reference.filter((a) => a.type !== 'search_policy').slice(0, 1), { type: 'search_policy', query: 'help customer issue' }, ...reference.filter((a) => a.type !== 'search_policy').slice(1)]],
  ];
  // The long ones on a few seeds only: what they exercise does not depend on the instance's facts.
  if (seed < 3) variants.push(['keyword reply', withReply(task.knowledge_base.map((a) => `${a.title}. ${a.body}`).join('\n'))]);
  if (seed === 0) variants.push(['unreadable reply', withReply(`${reply} ${'and then the next part of the case '.repeat(180)}`)]);
  if (other) {
    variants.push([
      'collateral acts',
      [{ type: 'open_ticket', ticket_id: other.id }, { type: 'set_priority', priority: 'urgent' }, { type: 'send_reply', message: reply || 'We are looking into it.' }, ...reference],
    ]);
  }
  if (resolveAt !== -1) {
    const resolve = reference[resolveAt] as Extract<Action, { type: 'resolve_ticket' }>;
    const wrong: Action =
      resolve.amount !== undefined ? { ...resolve, amount: resolve.amount + 1 } : { type: 'resolve_ticket', resolution: resolve.resolution === 'no_action_needed' ? 'information_provided' : 'no_action_needed' };
    variants.push(['wrong resolution', [...reference.slice(0, resolveAt), wrong]]);
  }
  return variants;
}

/** The corpus of a grader version: every case whose task that version grades. */
export function buildCorpus(version: number, grades: (task: Task) => boolean): GraderCorpus {
  const tasks: Record<string, Task> = {};
  const cases: CorpusCase[] = [];
  const snapshots: [string, Task][] = [
    // The canonical files as written, and as served (a generator version may declare its lexicon in them).
    ...[...loadTaskFiles(DEFAULT_TASKS_DIR), ...canonicalTasks()].map((loaded): [string, Task] => [`${loaded.task.id}@${loaded.version}`, loaded.task]),
    ...storedTaskVersions().map((task): [string, Task] => [`${task.id}@release-0.1`, task]),
  ];
  for (const [key, task] of snapshots.filter(([, task]) => grades(task))) {
    tasks[key] = task;
    cases.push(...validityCases(key, task));
  }
  for (const family of families()) {
    for (const seed of CORPUS_SEEDS) {
      const task = family.generate(seed);
      if (!grades(task)) continue;
      const ref = { family: family.id, generator_version: family.generatorVersion, seed };
      for (const [name, actions] of trajectoryVariants(task, referenceRun(task, seed).actions, seed)) {
        cases.push({ label: `${family.id} g${family.generatorVersion} seed ${seed}: ${name}`, task: ref, seed, actions });
      }
    }
  }
  return { grader_version: version, tasks, cases };
}
