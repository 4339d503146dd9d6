import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SOLUTIONS } from '../../test/fixtures/solutions';
import { DEFAULT_TASKS_DIR } from '../config/app-config';
import { reset, step } from '../engine/engine';
import { observe } from '../engine/observation';
import { discriminates, searchPolicies } from '../engine/policy-search';
import { normalizeText } from '../engine/graders/v1/reply-matching';
import type { Task } from '../engine/task.schema';
import { latestFamilies } from '../families';
import { canonicalTasks, loadTaskFiles } from './task-files';

const loaded = loadTaskFiles(DEFAULT_TASKS_DIR);
const tasks = loaded.map((entry) => entry.task);

it('ships one canonical task per registered family, with the family difficulty', () => {
  expect(tasks.map((t) => [t.id, t.difficulty]).sort()).toEqual(latestFamilies().map((f) => [f.id, f.difficulty]).sort());
});

it("serves, with TASKS_DIR unset, the canonical files of the checkout, each with its family's lexicon declared", () => {
  // A task file is served as written (TASKS_DIR); the registry compiles each canonical.json in, and a generator
  // version that declares the family's lexicon declares it in the canonical instance too (a new content hash).
  const withLexicon = loaded.map(({ task }) => {
    const lexicon = latestFamilies().find((f) => f.id === task.id)!.generate(0).answer_key.lexicon;
    return { ...task, answer_key: { ...task.answer_key, lexicon } };
  });
  const served = canonicalTasks();
  expect(served.map((e) => e.task).sort(byTaskId)).toEqual(withLexicon.sort(byTaskId));
  for (const entry of served) expect(entry.version).not.toBe(loaded.find((l) => l.task.id === entry.task.id)!.version);
});

function byTaskId(a: Task, b: Task): number {
  return a.id.localeCompare(b.id);
}

it('versions are content hashes: stable for the same content, different for different content', () => {
  const again = loadTaskFiles(DEFAULT_TASKS_DIR);
  expect(again.map((e) => e.version)).toEqual(loaded.map((e) => e.version));
  expect(new Set(loaded.map((e) => e.version)).size).toBe(loaded.length);
});

describe('bad task content is refused with the file and the field named', () => {
  const original = JSON.parse(readFileSync(join(DEFAULT_TASKS_DIR, 'billing_duplicate_charge', 'canonical.json'), 'utf8'));

  function loadBroken(mutate: (task: any) => void, fileName = 'billing_duplicate_charge.json'): () => unknown {
    const dir = mkdtempSync(join(tmpdir(), 'tasks-'));
    const task = structuredClone(original);
    mutate(task);
    writeFileSync(join(dir, fileName), JSON.stringify(task));
    return () => loadTaskFiles(dir);
  }

  it.each([
    ['a bad enum', (t: any) => (t.inbox[2].customer.tier = 'gold'), /billing_duplicate_charge\.json: invalid task:[\s\S]*inbox\[2\]\.customer\.tier/],
    ['a missing field', (t: any) => delete t.instruction, /instruction/],
    ['an unknown field', (t: any) => (t.answer_key.hint = 'x'), /answer_key: Unrecognized key: "hint"|answer_key.*hint/],
    ['a target not in the inbox', (t: any) => (t.answer_key.target_ticket_id = 'T-9'), /answer_key\.target_ticket_id: "T-9" is not a ticket/],
    ['an unknown required article', (t: any) => (t.answer_key.required_article_ids = ['KB-X']), /answer_key\.required_article_ids\[0\]: "KB-X" is not an article/],
    ['a refund without amount', (t: any) => delete t.answer_key.resolution.amount, /answer_key\.resolution\.amount: refund_issued needs an amount/],
    ['an amount with a third decimal', (t: any) => (t.answer_key.resolution.amount = 348.005), /answer_key\.resolution\.amount: must have at most 2 decimals/],
    ['an amount a float tolerance would take for whole cents', (t: any) => (t.answer_key.resolution.amount = 0.30000000000000004), /answer_key\.resolution\.amount: must have at most 2 decimals/],
    ['a duplicate ticket id', (t: any) => (t.inbox[1].id = t.inbox[0].id), /ticket id "T-1038" appears twice/],
  ])('%s', (_name, mutate, message) => {
    expect(loadBroken(mutate)).toThrow(message);
  });

  it.each([19.99, 0.07, 0.29, 0.57, 348])('an amount of %p (2 decimals as written) is taken', (amount) => {
    expect(loadBroken((t: any) => (t.answer_key.resolution.amount = amount))).not.toThrow();
  });

  it('a file whose name is not its id', () => {
    expect(loadBroken(() => undefined, 'other_name.json')).toThrow(/other_name\.json: id: "billing_duplicate_charge" must match/);
  });

  it('a file that is not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tasks-'));
    writeFileSync(join(dir, 'broken.json'), '{ "id": ');
    expect(() => loadTaskFiles(dir)).toThrow(/broken\.json: not valid JSON/);
  });
});

// Per task, everything comes from the family's folder: its canonical instance (canonical.json) and the scripted
// trajectory on it (canonical-solution.json, read into SOLUTIONS from the registry).
describe.each(tasks.map((task) => [task.id, task] as const))('%s content', (taskId, task) => {
  const solution = SOLUTIONS[taskId];
  const target = task.inbox.find((t) => t.id === task.answer_key.target_ticket_id)!;

  it('the target ticket is not first in the file, and distractors include a resolved lookalike', () => {
    expect(task.inbox[0].id).not.toBe(target.id);
    expect(task.inbox.some((t) => t.status === 'resolved')).toBe(true);
  });

  it('the required articles are found by queries made of words the agent has read', () => {
    // Words of the ticket and the instruction, then of every article an earlier query surfaced.
    const wordsOf = (text: string) => normalizeText(text).match(/[\p{L}\p{N}-]+/gu) ?? [];
    const readWords = new Set(
      wordsOf([target.subject, target.body, ...target.contract_notes, ...target.recent_events.map((e) => e.detail), task.instruction].join(' ')),
    );
    // Each required article comes out on top of one of them, as grader version 2's policy rule asks.
    const onTop = new Set<string>();
    for (const query of solution.readingQueries) {
      for (const word of wordsOf(query)) expect(readWords).toContain(word);
      expect(discriminates(query, task.instruction)).toBe(true);
      const hits = searchPolicies(task, query);
      if (hits.length > 0) onTop.add(hits[0].article_id);
      for (const hit of hits) wordsOf(`${hit.title} ${hit.body}`).forEach((w) => readWords.add(w));
    }
    for (const id of task.answer_key.required_article_ids) expect(onTop).toContain(id);
  });

  it('search is ranked and deterministic, ties broken by article id', () => {
    const first = searchPolicies(task, 'refund policy customer');
    expect(searchPolicies(task, 'refund policy customer')).toEqual(first);
    for (let i = 1; i < first.length; i++) {
      const [a, b] = [first[i - 1], first[i]];
      expect(a.score > b.score || (a.score === b.score && a.article_id < b.article_id)).toBe(true);
    }
  });

  // TASKS.md, Realism: "Several articles are near-misses"; choosing between them is the skill being measured.
  it('has near-miss articles beyond the required ones (at least three)', () => {
    expect(task.knowledge_base.length).toBeGreaterThanOrEqual(task.answer_key.required_article_ids.length + 3);
  });

  it('no observation along the correct trajectory shows an answer-key value that is not visible in the content', () => {
    // Visible: the content an agent may read, and the agent's own actions echoed back in recent_actions.
    const visible = normalizeText(
      JSON.stringify({ instruction: task.instruction, inbox: task.inbox, kb: task.knowledge_base, own: solution.actions }),
    );
    const secrets = answerKeyStrings(task);
    let state = reset(task, 3);
    const observations = [observe(task, state)];
    for (const action of solution.actions) {
      state = step(task, state, action).state;
      observations.push(observe(task, state));
    }
    for (const observation of observations) {
      const text = normalizeText(JSON.stringify(observation));
      const leaked = secrets.filter((s) => text.includes(s) && !visible.includes(s));
      expect(leaked).toEqual([]);
      for (const key of ['answer_key', 'reply_claims', 'near_misses', 'justification', 'required_article_ids']) {
        expect(JSON.stringify(observation)).not.toContain(`"${key}"`);
      }
    }
  });
});

/** Every string in the answer key that would give an answer away, normalized like the observation text. */
function answerKeyStrings(task: Task): string[] {
  const key = task.answer_key;
  const strings = [
    key.resolution.code,
    ...(key.reply_claims ?? []).flatMap((c) => [c.description, ...(c.kind === 'option' ? c.options[c.value] : [])]),
    ...Object.values(key.justification),
  ];
  return [...new Set(strings.map(normalizeText))];
}
