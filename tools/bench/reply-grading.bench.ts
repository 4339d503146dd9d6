/* eslint-disable no-console */
import type { Action } from '../../src/engine/actions';
import { extractMentions, judgeClaims } from '../../src/engine/graders/v2/claims';
import { reset, step } from '../../src/engine/engine';
import type { EpisodeState } from '../../src/engine/state';
import type { Task } from '../../src/engine/task.schema';
import { canonicalTasks } from '../../src/tasks/task-files';
import { readCommandLine } from '../cli/command-line';
import { loadFixtureSets } from '../validity/validity-suite';
import { REPLY_GRADING_COMMAND } from './bench.commands';

/*
 * `npm run bench:grading`: what grading replies as claims costs, on this machine, through the engine's own step
 * (extraction once when the reply is sent, judgement at every grade):
 * - a send_reply step with a 500-character reply, grading included (budget: p99 <= 5 ms);
 * - another step (set_priority) before any reply, and after two 500-character replies: the floor and what the
 *   stored analyses add to every later step;
 * - the same later step if every earlier reply were read again at each grade (what storing the analyses saves).
 * Replies are the validity fixtures' replies chained and cut at 500 characters. Each figure is the median and 99th
 * percentile of every call over ROUNDS rounds after a warm-up; run it a few times, machines here are shared.
 *
 * Then hostile replies (docs/grading.md, "What reading a reply may cost"): the same send_reply step on replies built to
 * be expensive to read, each the median of ROUNDS / 4 runs (at least one) after one warm-up: the red team's reply
 * (letters that NFKC expands, ") ", 166 x "no. "), the same filling the largest allowed MAX_MESSAGE_LENGTH
 * (8,000) after normalisation, its plain-ASCII form, the slowest reply a generated corpus of hostile replies found,
 * and replies right at the reading budget. The target is that every reply the API accepts at 8,000 grades in at
 * most 50 ms.
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const LENGTH = 500;
const HOSTILE_ROUNDS = Math.max(1, Math.floor(ROUNDS / 4));
/** LIMITS.messageLengthCeiling: the largest MAX_MESSAGE_LENGTH a server may be configured with. */
const CEILING = 8000;

function percentiles(samples: number[]): { median: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] };
}

function timed(fn: () => void): number {
  const started = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function repliesOf(texts: string[]): string[] {
  return texts.map((_, i) => {
    let text = '';
    for (let k = i; text.length < LENGTH; k = (k + 1) % texts.length) text += (text ? '\n\n' : '') + texts[k];
    return text.slice(0, LENGTH);
  });
}

function opened(task: Task): EpisodeState {
  return step(task, reset(task, 1), { type: 'open_ticket', ticket_id: task.answer_key.target_ticket_id }).state;
}

function measure(task: Task, replies: string[]) {
  const base = opened(task);
  const withReplies = replies.slice(0, 2).reduce((state, message) => step(task, state, { type: 'send_reply', message }).state, base);
  const priority: Action = { type: 'set_priority', priority: 'high' };
  const sendReply: number[] = [];
  const otherBefore: number[] = [];
  const otherAfter: number[] = [];
  const rereading: number[] = [];
  const claims = task.answer_key.reply_claims ?? [];
  const earlier = withReplies.replies.map((r) => r.message);
  for (let round = 0; round < ROUNDS + 2; round++) {
    for (const message of replies) {
      const a = timed(() => step(task, base, { type: 'send_reply', message }));
      const b = timed(() => step(task, base, priority));
      const c = timed(() => step(task, withReplies, priority));
      const d = timed(() => {
        step(task, withReplies, priority);
        judgeClaims(claims, earlier.map((text) => extractMentions(text, task.clock ?? '')));
      });
      if (round < 2) continue; // warm-up
      sendReply.push(a);
      otherBefore.push(b);
      otherAfter.push(c);
      rereading.push(d);
    }
  }
  return { sendReply: percentiles(sendReply), otherBefore: percentiles(otherBefore), otherAfter: percentiles(otherAfter), rereading: percentiles(rereading) };
}

/** Units of a "no. " tail: each is a full stop the splitter must judge, after a growing run of letters. */
const TAIL = ') ' + 'no. '.repeat(166);

/** Replies built to be expensive to read, each with the limit (in code points after NFKC) it fits. */
function hostileReplies(): { name: string; message: string }[] {
  const fill = (unit: string, room: number) => unit.repeat(Math.floor(room / unit.normalize('NFKC').length));
  return [
    // What the red team sent: 2,000 code points as written, 7,336 once NFKC has expanded each "㌶" into five letters.
    { name: 'red team: "㌶" x 1,334 + ") " + "no. " x 166', message: '㌶'.repeat(2000 - TAIL.length) + TAIL },
    { name: 'red team, filling 8,000 after NFKC', message: fill('㌶', CEILING - TAIL.length) + TAIL },
    { name: 'red team in plain ASCII, 8,000', message: 'a'.repeat(CEILING - TAIL.length) + TAIL },
    // The slowest the generated corpus found: a thousand short sentences of money values, each judged by every claim.
    { name: 'corpus worst: "? $1 $1 " x 1,000', message: '? $1 $1 '.repeat(CEILING / 8) },
    // At the reading budget: the most one-word lines, and the longest single sentence, that are still read.
    { name: 'one-word lines at the budget: "a\\n" x 1,733', message: 'a\n'.repeat(1733) },
    { name: 'one sentence at the budget: "if " x 968', message: 'if '.repeat(968) },
  ];
}

function measureHostile(task: Task): void {
  const base = opened(task);
  console.log(`\nHostile replies on ${task.id}, ms per send_reply step (median of ${HOSTILE_ROUNDS} after a warm-up)`);
  console.log('| reply | code points | after NFKC | send_reply step |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const { name, message } of hostileReplies()) {
    const action: Action = { type: 'send_reply', message };
    step(task, base, action);
    const samples: number[] = [];
    for (let round = 0; round < HOSTILE_ROUNDS; round++) samples.push(timed(() => step(task, base, action)));
    const points = (text: string) => [...text].length.toLocaleString('en');
    console.log(`| ${name} | ${points(message)} | ${points(message.normalize('NFKC'))} | ${percentiles(samples).median.toFixed(2)} |`);
  }
}

function main(): void {
  readCommandLine(REPLY_GRADING_COMMAND);
  const tasks = new Map(canonicalTasks().map((loaded) => [loaded.task.id, loaded.task]));
  const texts = new Map<string, string[]>();
  for (const { fixtures } of loadFixtureSets()) {
    for (const f of fixtures) texts.set(f.task_id, [...(texts.get(f.task_id) ?? []), ...[...f.correct, ...f.adversarial].flatMap((r) => r.reply)]);
  }
  const ms = (p: { median: number; p99: number }) => `${p.median.toFixed(3)} / ${p.p99.toFixed(3)}`;
  console.log(`Reply grading cost, ms median / p99 per step (${ROUNDS} rounds; ${LENGTH}-character replies)`);
  console.log('| task | replies | send_reply step | set_priority, no reply yet | set_priority after 2 replies | same, re-reading replies each grade |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [taskId, task] of tasks) {
    const replies = repliesOf(texts.get(taskId) ?? []);
    const r = measure(task, replies);
    console.log(`| ${taskId} | ${replies.length} | ${ms(r.sendReply)} | ${ms(r.otherBefore)} | ${ms(r.otherAfter)} | ${ms(r.rereading)} |`);
  }
  for (const task of tasks.values()) measureHostile(task);
}

main();
