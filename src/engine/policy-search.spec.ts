import { DEFAULT_TASKS_DIR } from '../config/app-config';
import { loadTaskFiles } from '../tasks/task-files';
import { searchPolicies } from './policy-search';
import type { Task } from './task.schema';

const task: Task = loadTaskFiles(DEFAULT_TASKS_DIR).map((entry) => entry.task).find((t) => t.id === 'billing_duplicate_charge')!;

/** What a search finds on a copy of the task: a fresh index, nothing remembered. */
const fresh = (query: string) => searchPolicies(structuredClone(task), query);

it('a search repeated on a task answers what a fresh index answers, and later searches are not changed by what an episode does with its hits', () => {
  const queries = ['duplicate charge refund', 'annual renewal', 'duplicate charge refund', 'refund window', 'annual renewal'];
  for (const query of queries) expect(searchPolicies(task, query)).toEqual(fresh(query));
  const hits = searchPolicies(task, 'duplicate charge refund');
  expect(hits.length).toBeGreaterThan(0);
  hits[0].title = 'changed by an episode';
  hits.pop();
  expect(searchPolicies(task, 'duplicate charge refund')).toEqual(fresh('duplicate charge refund'));
});

it('remembers a bounded number of searches per task, and a different limit is a different search', () => {
  for (let i = 0; i < 100; i++) searchPolicies(task, `refund ${i}`);
  expect(searchPolicies(task, 'refund 0')).toEqual(fresh('refund 0'));
  expect(searchPolicies(task, 'refund', 1)).toHaveLength(1);
  expect(searchPolicies(task, 'refund', 5).length).toBeGreaterThan(1);
});
