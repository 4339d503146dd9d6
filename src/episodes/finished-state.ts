import type { Action } from '../engine/actions';
import { reset, step } from '../engine/engine';
import { graderModule, isGraderVersion } from '../engine/graders';
import type { EpisodeState } from '../engine/state';
import type { Task } from '../engine/task.schema';

/*
 * A finished episode keeps no state snapshot: its state follows from its instance (task version, seed, split key),
 * the grader version fixed at its reset and its logged actions, and replaying ten steps costs about 1.5 ms here,
 * while the snapshot was 40% of what a finished episode took on disk. Active episodes keep theirs, in active_states
 * (every step reads it), and the row goes when they end. Episodes stored before this release keep the snapshot they
 * have, in their own row; both forms read the same.
 */

/** What `state_json` holds once the episode has ended: replay it (stateOf). */
export const SNAPSHOT_DROPPED = '';

/** The snapshot to store after a step: the state while the episode runs, nothing once it has ended. */
export function snapshotFor(state: EpisodeState): string {
  // Plain JSON, not canonical: this runs on every step, and nothing hashes the snapshot (verify compares it in
  // canonical form).
  return state.status === 'active' ? JSON.stringify(state) : SNAPSHOT_DROPPED;
}

/** The stored form of an episode that `stateOf` reads. */
export interface StoredEpisodeState {
  stateJson: string;
  seed: number;
  graderVersion: number;
}

/**
 * The episode's state: its snapshot, or (when it has none) its logged actions replayed on its instance with its
 * grader, as the snapshot would have been stored (plain JSON: a number JSON cannot write reads as null).
 */
export function stateOf(task: Task, episode: StoredEpisodeState, actionJsons: () => string[]): EpisodeState {
  if (episode.stateJson !== SNAPSHOT_DROPPED) return JSON.parse(episode.stateJson) as EpisodeState;
  const version = episode.graderVersion;
  if (!isGraderVersion(version) || !graderModule(version).grades(task)) {
    throw new Error(`episode state cannot be replayed: grader version ${version} does not grade this task version`);
  }
  let state = reset(task, episode.seed, version);
  for (const actionJson of actionJsons()) {
    if (state.done) break;
    state = step(task, state, JSON.parse(actionJson) as Action).state;
  }
  return JSON.parse(JSON.stringify(state)) as EpisodeState;
}
