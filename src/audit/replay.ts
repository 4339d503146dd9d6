import type { Action } from '../engine/actions';
import type { GraderVersion } from '../engine/grader-version';
import { graderModule, isGraderVersion } from '../engine/graders';
import { reset, step } from '../engine/engine';
import type { EpisodeState } from '../engine/state';
import type { Task } from '../engine/task.schema';

/**
 * Logged actions replayed on a task version with the grader that version is written for: what a recorded
 * trajectory earns today. Stops where the episode ends (a later version may end it sooner).
 */
export function replayUnder(task: Task, seed: number, actions: Action[]): { state: EpisodeState; steps: number } {
  let state = reset(task, seed);
  let steps = 0;
  for (const action of actions) {
    if (state.done) break;
    state = step(task, state, action).state;
    steps++;
  }
  return { state, steps };
}

/**
 * The grader version an episode was scored with, when it can grade the episode's task version (what a replay of the
 * episode's own record needs); null when it cannot (an unknown version, or a task written for another grader).
 */
export function replayableVersion(task: Task, graderVersion: number): GraderVersion | null {
  const version = graderVersion as GraderVersion;
  return isGraderVersion(version) && graderModule(version).grades(task) ? version : null;
}
