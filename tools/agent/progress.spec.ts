import { formatDuration, ProgressDisplay } from './progress';

function stream(isTTY = false) {
  const written: string[] = [];
  return { written, write: (text: string) => written.push(text), isTTY };
}

describe('ProgressDisplay, plain (not a terminal)', () => {
  it('writes one line at the start and one per cell that ends, with the ETA from this runner\'s pace', () => {
    let now = 0;
    const out = stream(false);
    const progress = new ProgressDisplay(out, { total: 10, finishedBefore: 4, now: () => now });
    progress.cellStarted();
    progress.cellStarted();
    now = 30_000;
    progress.cellFinished('billing seed 0 trial 1');
    now = 45_000;
    progress.cellFailed('security seed 0 trial 1', 'interrupted');
    progress.cellStarted();
    now = 60_000;
    progress.cellFinished('logistics seed 0 trial 1');
    progress.stop();
    expect(out.written).toEqual([
      'progress: 4/10 cells (40%), ETA --\n',
      // 1 cell in 30 s, 5 left: 2m 30s
      'progress: 5/10 cells (50%), 1 in flight, ETA 2m 30s: finished billing seed 0 trial 1\n',
      // still 1 cell in 45 s: 5 left, 3m 45s
      'progress: 5/10 cells (50%), 1 failed, ETA 3m 45s: failed security seed 0 trial 1 (interrupted); it will be filled again\n',
      // 2 cells in 60 s, 4 left: 2m 00s
      'progress: 6/10 cells (60%), 1 failed, ETA 2m 00s: finished logistics seed 0 trial 1\n',
    ]);
    // Nothing on a terminal's terms: no carriage return, no escape sequence.
    expect(out.written.join('')).not.toMatch(/[\r\x1b]/);
  });

  it('notes (warnings) are plain lines too, and a run with nothing left says done', () => {
    const out = stream(false);
    const progress = new ProgressDisplay(out, { total: 2, finishedBefore: 2 });
    progress.note('warning: x');
    expect(out.written).toEqual(['progress: 2/2 cells (100%), ETA done\n', 'warning: x\n']);
  });
});

describe('ProgressDisplay on a terminal', () => {
  it('redraws one line in place with a bar, and clears it before stdout lines are written', () => {
    let now = 0;
    const out = { ...stream(true), columns: 200 };
    const progress = new ProgressDisplay(out, { total: 4, finishedBefore: 0, now: () => now, redrawMs: 0 });
    progress.cellStarted();
    now = 10_000;
    progress.cellFinished('a');
    const stdout: string[] = [];
    progress.above(() => stdout.push('[END] …'));
    progress.stop();
    expect(out.written[0]).toBe('\r\x1b[2K[------------------------] 0/4 cells (0%), ETA --');
    expect(out.written).toContain('\r\x1b[2K[######------------------] 1/4 cells (25%), ETA 30s');
    // above(): the bar is cleared, the lines are written, the bar comes back.
    const cleared = out.written.lastIndexOf('\r\x1b[2K');
    expect(cleared).toBeGreaterThan(0);
    expect(out.written.at(-1)).toBe('\n');
    expect(stdout).toEqual(['[END] …']);
  });

  it('keeps the bar within the terminal width', () => {
    const out = { ...stream(true), columns: 20 };
    const progress = new ProgressDisplay(out, { total: 4, finishedBefore: 0, redrawMs: 0 });
    progress.stop();
    expect(out.written[0]).toBe('\r\x1b[2K' + '[------------------------] 0/4'.slice(0, 19));
  });
});

it('formats durations', () => {
  expect([0, 4_400, 59_600, 125_000, 3_720_000].map(formatDuration)).toEqual(['0s', '4s', '1m 00s', '2m 05s', '1h 02m']);
});
