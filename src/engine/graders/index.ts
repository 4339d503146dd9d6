import type { GraderVersion } from '../grader-version';
import type { EpisodeState } from '../state';
import type { Task } from '../task.schema';
import type { GraderModule } from './grader-module';

export type { GraderModule } from './grader-module';

/**
 * The registry of grader versions (src/engine/grader-version.ts says what a version is and why a released one is
 * frozen). `released`: the version is on main, so a deployed database may hold episodes scored by it; it is then
 * held to its hashes in tools/versions/released-versions.json. A version under development is `released: false`
 * until it is merged, and is frozen with `npm run versions:freeze -- --grader <n>` then.
 */
export const GRADERS: Readonly<Record<GraderVersion, { readonly module: GraderModule; released: boolean }>> = {
  1: version(true, () => (require('./v1') as typeof import('./v1')).graderV1),
  2: version(true, () => (require('./v2') as typeof import('./v2')).graderV2),
  3: version(true, () => (require('./v3') as typeof import('./v3')).graderV3),
  4: version(true, () => (require('./v4') as typeof import('./v4')).graderV4),
  5: version(true, () => (require('./v5') as typeof import('./v5')).graderV5),
  6: version(true, () => (require('./v6') as typeof import('./v6')).graderV6),
  7: version(true, () => (require('./v7') as typeof import('./v7')).graderV7),
  8: version(true, () => (require('./v8') as typeof import('./v8')).graderV8),
  9: version(true, () => (require('./v9') as typeof import('./v9')).graderV9),
  10: version(true, () => (require('./v10') as typeof import('./v10')).graderV10),
  11: version(true, () => (require('./v11') as typeof import('./v11')).graderV11),
  12: version(true, () => (require('./v12') as typeof import('./v12')).graderV12),
  13: version(true, () => (require('./v13') as typeof import('./v13')).graderV13),
  14: version(true, () => (require('./v14') as typeof import('./v14')).graderV14),
  15: version(true, () => (require('./v15') as typeof import('./v15')).graderV15),
  16: version(true, () => (require('./v16') as typeof import('./v16')).graderV16),
};

/**
 * A registry entry whose module is loaded the first time it is asked for. Each version is a full reading engine
 * (about 130 ms to load apiece), and a server, a test file or a tool mostly needs only the current one: the others
 * load when an episode or a task of theirs comes up.
 */
function version(released: boolean, load: () => GraderModule): { readonly module: GraderModule; released: boolean } {
  let loaded: GraderModule | undefined;
  return {
    released,
    get module() {
      return (loaded ??= load());
    },
  };
}

/** The version new episodes are scored with (when the task's reply details are written for it). */
export const CURRENT_GRADER_VERSION: GraderVersion = 16;

/** Whether a stored number names a registered grader version. */
export function isGraderVersion(version: number): version is GraderVersion {
  return Object.hasOwn(GRADERS, version);
}

export function graderModule(version: GraderVersion): GraderModule {
  const entry = (GRADERS as Record<number, { module: GraderModule } | undefined>)[version];
  if (!entry) throw new Error(`no grader version ${version}`);
  return entry.module;
}

/** The grader an episode's state was started with (states of earlier releases carry none: version 1). */
export function graderVersionOfState(state: EpisodeState): GraderVersion {
  return state.grader_version ?? 1;
}

/** The grader that scores a state. */
export function graderOfState(state: EpisodeState): GraderModule {
  return graderModule(graderVersionOfState(state));
}

/**
 * The grader a new episode of the task gets: the current one if it can grade the task, else the newest that can
 * (phrase-list task versions stored by release 0.1 are version 1's).
 */
export function graderVersionOf(task: Task): GraderVersion {
  if (GRADERS[CURRENT_GRADER_VERSION].module.grades(task)) return CURRENT_GRADER_VERSION;
  const versions = (Object.keys(GRADERS).map(Number) as GraderVersion[]).sort((a, b) => b - a);
  const newest = versions.find((v) => GRADERS[v].module.grades(task));
  if (newest === undefined) throw new Error(`no grader version can grade task ${task.id}`);
  return newest;
}
