import type { ScoreBucket } from './audit.repository';
import { summarizeHistogram } from './score-stats';

const zero = { opened_target: 0, policy_consulted: 0, priority: 0, routing: 0, reply_coverage: 0, resolution: 0 };
const bucket = (taskId: string, scoreMilli: number, count: number, completed = count, opened = 0): ScoreBucket => ({
  taskId,
  agent: null,
  scoreMilli,
  count,
  completed,
  componentSumsMilli: { ...zero, opened_target: opened },
});

it('computes count, completion, mean, median (odd and even), successes and component means exactly', () => {
  const [odd, even] = summarizeHistogram(
    [
      // scores 0, 0, 500, 1000, 1000 -> median 500
      bucket('a', 0, 2, 0),
      bucket('a', 500, 1, 1, 50),
      bucket('a', 1000, 2, 2, 100),
      // scores 100, 200, 300, 900 -> median (200 + 300) / 2
      bucket('b', 100, 1),
      bucket('b', 200, 1),
      bucket('b', 300, 1),
      bucket('b', 900, 1),
    ],
    900,
  );
  expect(odd).toMatchObject({ taskId: 'a', count: 5, completed: 3, successes: 2, meanMilli: 500, medianMilli: 500 });
  expect(odd.componentMeansMilli.opened_target).toBe(30);
  expect(even).toMatchObject({ taskId: 'b', count: 4, successes: 1, meanMilli: 375, medianMilli: 250 });
});

it('a single episode is its own median', () => {
  expect(summarizeHistogram([bucket('a', 350, 1)], 1000)[0]).toMatchObject({ medianMilli: 350, successes: 0 });
});
