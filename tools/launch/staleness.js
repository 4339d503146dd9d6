'use strict';

/**
 * Why a build has to run before its output is used, or null when the last successful build still stands.
 * Facts in, answer out, no file system, so it is tested without building anything; launch.js gathers the facts.
 *
 * A build stands when its output is there and no input changed since it began: none modified at or after the
 * moment it started reading its sources, none added, none removed. Additions and removals count on their own
 * because a file moved into place (`mv`, `git mv`) keeps its old modification time.
 *
 * @param {object} facts
 * @param {boolean} facts.outputExists  the file about to be run exists
 * @param {{ sourcesAsOfMs: number, inputs: string[] } | null} facts.stamp  what the last successful build recorded, null when none did
 * @param {{ path: string, mtimeMs: number }[]} facts.inputs  every input as it is now
 * @returns {string | null}
 */
function staleReason({ outputExists, stamp, inputs }) {
  if (!stamp) return 'no finished build yet';
  if (!outputExists) return 'its output is missing';
  const changed = inputs.find((input) => input.mtimeMs >= stamp.sourcesAsOfMs);
  if (changed) return `${changed.path} changed`;
  const built = new Set(stamp.inputs);
  const added = inputs.find((input) => !built.has(input.path));
  if (added) return `${added.path} is new`;
  const present = new Set(inputs.map((input) => input.path));
  const removed = stamp.inputs.find((path) => !present.has(path));
  if (removed) return `${removed} is gone`;
  return null;
}

/**
 * The time a build records as "sources as of": its start, rounded down to the second, because some file
 * systems keep modification times in whole seconds and an edit made during the build's first second must
 * still count as newer. The cost is at most one extra build.
 */
function sourcesAsOf(startedAtMs) {
  return Math.floor(startedAtMs / 1000) * 1000;
}

module.exports = { staleReason, sourcesAsOf };
