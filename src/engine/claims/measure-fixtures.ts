/**
 * Development measurement on the validity fixtures (not a test): per task, the share of correct replies that
 * miss a detail (false negatives), the adversarial replies that earn any detail, the harmful replies (judged
 * like correct ones), and the time to extract and judge a 500-character reply (median and 99th percentile).
 *
 *   npx ts-node --transpile-only src/engine/claims/measure-fixtures.ts [fixture-dir] [--verbose]
 */
/* eslint-disable no-console */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CANONICAL_CLAIMS } from './canonical-claims';
import { extractMentions, judgeClaims, type PolicyText, type ReplyClaim } from './index';

interface Fixture {
  task_id: string;
  correct: { id: string; reply: string }[];
  adversarial: { id: string; reply: string; kind: string }[];
  harmful: { id: string; reply: string; kind: string }[];
}

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--')) ?? '/tmp/validity-out';
const verbose = args.includes('--verbose');
const root = join(__dirname, '..', '..', '..');

function policiesOf(taskId: string): PolicyText[] {
  const task = JSON.parse(readFileSync(join(root, 'seeds', 'tasks', `${taskId}.json`), 'utf8'));
  const target = task.inbox.find((t: { id: string }) => t.id === task.answer_key.target_ticket_id);
  return [
    ...task.knowledge_base.map((a: { title: string; body: string }) => ({ title: a.title, body: a.body })),
    ...target.contract_notes.map((n: string) => ({ body: n })),
  ];
}

function judge(reply: string, claims: ReplyClaim[], clock: string, policies: PolicyText[]) {
  return judgeClaims(claims, [extractMentions(reply, clock, { policies })]);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const rows: string[] = [];
for (const taskId of Object.keys(CANONICAL_CLAIMS)) {
  const { clock, claims } = CANONICAL_CLAIMS[taskId];
  const fixture: Fixture = JSON.parse(readFileSync(join(dir, `${taskId}.json`), 'utf8'));
  const policies = policiesOf(taskId);
  const missed: string[] = [];
  for (const c of fixture.correct) {
    const v = judge(c.reply, claims, clock, policies);
    const miss = v.filter((x) => !x.covered);
    if (miss.length) {
      missed.push(c.id);
      if (verbose) console.log(`[${taskId}] correct ${c.id} misses`, miss.map((m) => `${m.id}:${m.reason} «${m.sentence ?? ''}»`).join(' | '));
    }
  }
  const earning: string[] = [];
  for (const a of fixture.adversarial) {
    const v = judge(a.reply, claims, clock, policies);
    const got = v.filter((x) => x.covered);
    if (got.length) {
      earning.push(a.id);
      if (verbose) console.log(`[${taskId}] adversarial ${a.id} (${a.kind}) earns`, got.map((m) => `${m.id} «${m.sentence}»`).join(' | '));
    }
  }
  const harmfulMissed: string[] = [];
  for (const h of fixture.harmful) {
    const v = judge(h.reply, claims, clock, policies);
    const miss = v.filter((x) => !x.covered);
    if (miss.length) {
      harmfulMissed.push(h.id);
      if (verbose) console.log(`[${taskId}] harmful ${h.id} misses`, miss.map((m) => `${m.id}:${m.reason} «${m.sentence ?? ''}»`).join(' | '));
    }
  }
  // Timing: extraction plus judgement of 500-character replies, each made of a fixture reply followed by the
  // next ones and cut at 500 characters; warm-up first, then every input timed alone, many rounds.
  const all = [...fixture.correct, ...fixture.adversarial, ...fixture.harmful].map((r) => r.reply);
  const inputs = all.map((_, i) => {
    let text = '';
    for (let k = i; text.length < 500; k = (k + 1) % all.length) text += (text ? '\n\n' : '') + all[k];
    return text.slice(0, 500);
  });
  for (let i = 0; i < 5; i++) for (const r of inputs) judge(r, claims, clock, policies);
  const per500: number[] = [];
  for (let round = 0; round < 30; round++) {
    for (const r of inputs) {
      const t0 = process.hrtime.bigint();
      judge(r, claims, clock, policies);
      per500.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  per500.sort((a, b) => a - b);
  const fnr = (100 * missed.length) / fixture.correct.length;
  rows.push(
    `| ${taskId} | ${fixture.correct.length - missed.length}/${fixture.correct.length} (FN ${fnr.toFixed(1)}%) ${missed.join(' ')} ` +
      `| ${earning.length}/${fixture.adversarial.length} ${earning.join(' ')} ` +
      `| ${fixture.harmful.length - harmfulMissed.length}/${fixture.harmful.length} ${harmfulMissed.join(' ')} ` +
      `| ${percentile(per500, 0.5).toFixed(3)} | ${percentile(per500, 0.99).toFixed(3)} |`,
  );
}
console.log('| task | correct fully covered (false negatives) | adversarial earning any detail | harmful fully covered | median ms/500 chars | p99 ms/500 chars |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(r);
