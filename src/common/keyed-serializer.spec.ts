import { KeyedSerializer } from './keyed-serializer';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSerializer', () => {
  it('runs the tasks of one key one after another, in order, and of different keys side by side', async () => {
    const serializer = new KeyedSerializer();
    const events: string[] = [];
    const task = (name: string, turns: number) => async () => {
      events.push(`${name} start`);
      for (let i = 0; i < turns; i++) await tick();
      events.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([serializer.run('a', task('a1', 3)), serializer.run('a', task('a2', 1)), serializer.run('b', task('b1', 1))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    // b1 ran while a1 was running; a2 started only after a1 ended.
    expect(events.indexOf('b1 start')).toBeLessThan(events.indexOf('a1 end'));
    expect(events.indexOf('a2 start')).toBeGreaterThan(events.indexOf('a1 end'));
  });

  it('a task that fails does not stop the ones queued after it, and the failure reaches only its caller', async () => {
    const serializer = new KeyedSerializer();
    const failed = serializer.run('a', async () => {
      throw new Error('boom');
    });
    const next = serializer.run('a', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('forgets a key once its queue has run dry', async () => {
    const serializer = new KeyedSerializer();
    const running = serializer.run('a', async () => tick());
    expect(serializer.size).toBe(1);
    await running;
    await tick();
    expect(serializer.size).toBe(0);
  });
});
