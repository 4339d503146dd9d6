import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp } from './support/test-app';

/** The README's curl walk-through, run as written: each `step '<json>'  # reward R` must earn R. */
it('the README episode walk-through earns the rewards it claims and ends at 1.0', async () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const reset = JSON.parse(readme.match(/-d '(\{"task_id": [^']+\})'/)![1]);
  const steps = [...readme.matchAll(/^step '(.+)'\s+# reward ([\d.]+)/gm)].map((m) => ({
    action: JSON.parse(m[1]),
    reward: Number(m[2]),
  }));
  expect(steps.length).toBe(6);

  const { app, http } = await startTestApp();
  try {
    const started = (await request(http).post('/reset').send(reset).expect(200)).body;
    let last: any;
    for (const { action, reward } of steps) {
      last = (await request(http).post('/step').send({ episode_id: started.episode_id, action }).expect(200)).body;
      expect(last.reward).toBe(reward);
    }
    expect(last.done).toBe(true);
    const graded = (await request(http).post('/grader').send({ episode_id: started.episode_id }).expect(200)).body;
    expect(graded.score).toBe(1);
  } finally {
    await app.close();
  }
});
