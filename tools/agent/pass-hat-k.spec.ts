import { choose, passHatK } from './pass-hat-k';

it('computes binomial coefficients', () => {
  expect([choose(4, 2), choose(5, 0), choose(5, 5), choose(2, 3), choose(10, 3)]).toEqual([6, 1, 1, 0, 120]);
});

it('pass^k is the mean over tasks of C(c, k) / C(n, k)', () => {
  const tasks = [
    { trials: 4, successes: 4 },
    { trials: 4, successes: 2 },
    { trials: 4, successes: 0 },
  ];
  expect(passHatK(tasks, 1)).toBeCloseTo((1 + 0.5 + 0) / 3, 12);
  expect(passHatK(tasks, 2)).toBeCloseTo((1 + 1 / 6 + 0) / 3, 12);
  expect(passHatK(tasks, 4)).toBeCloseTo(1 / 3, 12);
});

it('leaves out tasks with fewer trials than k', () => {
  expect(passHatK([{ trials: 1, successes: 1 }, { trials: 3, successes: 0 }], 2)).toBe(0);
  expect(passHatK([{ trials: 1, successes: 1 }], 2)).toBeNaN();
});
