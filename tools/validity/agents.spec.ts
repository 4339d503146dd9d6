import { FEEDBACK_MODES } from '../../src/episodes/episode.repository';
import { canonicalTasks } from '../../src/tasks/task-files';
import { latestFamilies } from '../../src/families';
import { AgentEnvironment, blindAgent, harmCases, playAgent, scriptedSolution, stuffingAgent } from './agents';

/*
 * The incentive half of the validity suite (`npm run validity` prints the same figures): reward cannot be earned
 * without reading, harm always costs, and the correct trajectories score exactly 1.0, in both feedback modes.
 */

const tasks = canonicalTasks().map((entry) => entry.task);
const cases = FEEDBACK_MODES.flatMap((mode) => tasks.map((task) => [mode, task.id, task] as const));

it.each(cases)('%s feedback, %s: the blind and the stuffing agents average at most 0.25 over 20 seeds', (mode, _id, task) => {
  for (const agent of ['blind', 'stuffing']) {
    const { mean, scores } = playAgent(agent, task, mode);
    expect([agent, scores.length, mean <= 0.25]).toEqual([agent, 20, true]);
  }
});

it.each(cases)('%s feedback, %s: doing nothing scores 0; the scripted solution scores exactly 1.0 on every seed', (mode, _id, task) => {
  expect(playAgent('do-nothing', task, mode).scores.every((s) => s === 0)).toBe(true);
  expect(playAgent('scripted', task, mode).scores.every((s) => s === 1)).toBe(true);
});

it.each(tasks.map((task) => [task.id, task] as const))('%s: each harmful step of the red team report has a negative reward', (_id, task) => {
  for (const harm of harmCases(task)) {
    expect([harm.name, harm.scoreBefore > 0, harm.rewards.length > 0, harm.rewards.every((r) => r < 0)]).toEqual([harm.name, true, true, true]);
    expect(harm.finalScore).toBeLessThan(1);
  }
});

it.each(tasks.map((task) => [task.id, task] as const))('%s: with feedback "final" every reward is 0 but the last, which is the whole score', (_id, task) => {
  const env = new AgentEnvironment(task, 9, 'final');
  scriptedSolution(env);
  expect(env.rewards.slice(0, -1).every((r) => r === 0)).toBe(true);
  expect(env.rewards.at(-1)).toBe(1);
});

// The same agents on drawn instances: the families' facts vary, so a fixed guess is right only by chance.
// (AGENT_DRAWN_SEEDS: 25 in npm test, its time budget; CI runs this again on 100, the documented figure.)
const DRAWN_SEEDS = Number(process.env.AGENT_DRAWN_SEEDS ?? 25);
const drawn = FEEDBACK_MODES.flatMap((mode) => latestFamilies().map((family) => [mode, family.id, family] as const));
it.each(drawn)(`%s feedback, %s family: the blind and the stuffing agents average at most 0.25 over ${DRAWN_SEEDS} drawn instances`, (mode, _id, family) => {
  for (const agent of [blindAgent, stuffingAgent]) {
    const scores = Array.from({ length: DRAWN_SEEDS }, (_, seed) => {
      const env = new AgentEnvironment(family.generate(seed), seed, mode);
      agent(env);
      return env.state.score_milli / 1000;
    });
    expect(scores.reduce((a, b) => a + b, 0) / scores.length).toBeLessThanOrEqual(0.25);
  }
});
