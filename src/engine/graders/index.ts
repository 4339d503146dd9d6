import type { GraderVersion } from '../grader-version';
import type { EpisodeState } from '../state';
import type { Task } from '../task.schema';
import type { GraderModule } from './grader-module';
import { graderV1 } from './v1';
import { graderV2 } from './v2';
import { graderV3 } from './v3';
import { graderV4 } from './v4';
import { graderV5 } from './v5';
import { graderV6 } from './v6';
import { graderV7 } from './v7';
import { graderV8 } from './v8';
import { graderV9 } from './v9';
import { graderV10 } from './v10';
import { graderV11 } from './v11';

export type { GraderModule } from './grader-module';

/**
 * The registry of grader versions (src/engine/grader-version.ts says what a version is and why a released one is
 * frozen). `released`: the version is on main, so a deployed database may hold episodes scored by it; it is then
 * held to its hashes in tools/versions/released-versions.json. A version under development is `released: false`
 * until it is merged, and is frozen with `npm run versions:freeze -- --grader <n>` then.
 */
export const GRADERS: Readonly<Record<GraderVersion, { module: GraderModule; released: boolean }>> = {
  1: { module: graderV1, released: true },
  2: { module: graderV2, released: true },
  3: { module: graderV3, released: true },
  4: { module: graderV4, released: true },
  5: { module: graderV5, released: true },
  6: { module: graderV6, released: true },
  7: { module: graderV7, released: true },
  8: { module: graderV8, released: true },
  9: { module: graderV9, released: true },
  10: { module: graderV10, released: true },
  11: { module: graderV11, released: true },
};

/** The version new episodes are scored with (when the task's reply details are written for it). */
export const CURRENT_GRADER_VERSION: GraderVersion = 11;

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
