import { RateLimiter } from './rate-limiter';

it('lets a caller spend a minute of budget, then says how long until the next token', () => {
  let now = 0;
  const limiter = new RateLimiter(60, () => now);
  for (let i = 0; i < 60; i++) expect(limiter.take('a')).toBe(0);
  expect(limiter.take('a')).toBe(1);
  expect(limiter.take('b')).toBe(0); // another caller has its own bucket
  now += 500;
  expect(limiter.take('a')).toBe(1); // half a token: still wait
  now += 500;
  expect(limiter.take('a')).toBe(0);
  expect(limiter.wait('a')).toBe(1);
});

it('0 per minute means no limit, and full buckets are forgotten', () => {
  expect(new RateLimiter(0).take('x')).toBe(0);
  let now = 0;
  const limiter = new RateLimiter(6, () => now);
  limiter.take('a');
  limiter.take('b');
  now += 10_000;
  limiter.prune();
  expect((limiter as unknown as { buckets: Map<string, unknown> }).buckets.size).toBe(0);
});

it('takes several tokens at once, all or none (a step batch), and never more than a full bucket', () => {
  let now = 0;
  const limiter = new RateLimiter(60, () => now);
  expect(limiter.take('a', 50)).toBe(0);
  expect(limiter.take('a', 11)).toBe(1); // 10 left: none taken
  expect(limiter.take('a', 10)).toBe(0); // so all ten are still there
  expect(limiter.take('a', 5)).toBe(5); // empty: five seconds until five tokens
  now += 5_000;
  expect(limiter.take('a', 5)).toBe(0);
  expect(limiter.take('b', 61)).toBe(Infinity);
  expect(limiter.take('b', 60)).toBe(0);
});
