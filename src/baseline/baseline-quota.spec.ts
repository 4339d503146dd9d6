import { TooManyError } from '../common/errors/domain-errors';
import { BaselineQuota } from './baseline-quota';

describe('the baseline quota', () => {
  it('allows BASELINE_RUNS_PER_HOUR runs a tenant in any hour, says when the next one may start, and counts tenants apart', async () => {
    let now = Date.UTC(2026, 11, 1, 12);
    const quota = new BaselineQuota(2, () => now);
    await quota.run('a', async () => 1);
    now += 10 * 60_000;
    await quota.run('a', async () => 2);
    const refused = await quota.run('a', async () => 3).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyError);
    expect((refused as TooManyError).retryAfterSeconds).toBe(50 * 60);
    await expect(quota.run('b', async () => 4)).resolves.toBe(4);
    now += 50 * 60_000 + 1;
    await expect(quota.run('a', async () => 5)).resolves.toBe(5);
  });

  it('refuses a second run of a tenant while its first is in progress, and frees it when it fails', async () => {
    const quota = new BaselineQuota(0, () => 0);
    let finish!: () => void;
    const first = quota.run('a', () => new Promise<void>((resolve) => (finish = resolve)));
    await expect(quota.run('a', async () => 1)).rejects.toThrow(/still in progress/);
    finish();
    await first;
    await expect(quota.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(quota.run('a', async () => 2)).resolves.toBe(2);
  });
});
