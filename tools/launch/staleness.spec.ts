// The launcher is plain JavaScript (it runs before anything is compiled); its decision is typed here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { staleReason, sourcesAsOf } = require('./staleness.js') as {
  staleReason(facts: { outputExists: boolean; stamp: { sourcesAsOfMs: number; inputs: string[] } | null; inputs: { path: string; mtimeMs: number }[] }): string | null;
  sourcesAsOf(startedAtMs: number): number;
};

const BUILT_AT = 1_700_000_000_000;
const stamp = { sourcesAsOfMs: BUILT_AT, inputs: ['src/main.ts', 'tools/agent/agent.cli.ts', 'package-lock.json'] };
const unchanged = stamp.inputs.map((path) => ({ path, mtimeMs: BUILT_AT - 60_000 }));

describe('staleReason', () => {
  it('lets a build stand when its output is there and no input changed since it began', () => {
    expect(staleReason({ outputExists: true, stamp, inputs: unchanged })).toBeNull();
  });

  it('builds when no build has finished, or its output is gone', () => {
    expect(staleReason({ outputExists: true, stamp: null, inputs: unchanged })).toBe('no finished build yet');
    expect(staleReason({ outputExists: false, stamp, inputs: unchanged })).toBe('its output is missing');
  });

  it('builds when an input was modified after the build began, or at the same moment', () => {
    const later = unchanged.map((input, i) => (i === 1 ? { ...input, mtimeMs: BUILT_AT + 5 } : input));
    expect(staleReason({ outputExists: true, stamp, inputs: later })).toBe('tools/agent/agent.cli.ts changed');
    const same = unchanged.map((input, i) => (i === 2 ? { ...input, mtimeMs: BUILT_AT } : input));
    expect(staleReason({ outputExists: true, stamp, inputs: same })).toBe('package-lock.json changed');
  });

  it('builds when an input appears or disappears, even with an old modification time (a moved file keeps its own)', () => {
    const added = [...unchanged, { path: 'src/moved-here.ts', mtimeMs: BUILT_AT - 10 * 86_400_000 }];
    expect(staleReason({ outputExists: true, stamp, inputs: added })).toBe('src/moved-here.ts is new');
    expect(staleReason({ outputExists: true, stamp, inputs: unchanged.slice(1) })).toBe('src/main.ts is gone');
  });
});

describe('sourcesAsOf', () => {
  it('rounds the start of a build down to the second, so an edit in that second still counts on a coarse file system', () => {
    expect(sourcesAsOf(BUILT_AT + 999)).toBe(BUILT_AT);
    const editInFirstSecond = { path: 'src/main.ts', mtimeMs: BUILT_AT }; // made at +400 ms, stored in whole seconds
    expect(staleReason({ outputExists: true, stamp: { ...stamp, sourcesAsOfMs: sourcesAsOf(BUILT_AT + 300) }, inputs: [editInFirstSecond, ...unchanged.slice(1)] })).toBe(
      'src/main.ts changed',
    );
  });
});
