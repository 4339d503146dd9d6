import { InterruptGate } from './interrupt';

describe('InterruptGate', () => {
  function gate() {
    let now = 1_000;
    const seen: string[] = [];
    const g = new InterruptGate({ onFirst: () => seen.push('first'), onSecond: () => seen.push('second'), now: () => now, echoWindowMs: 500 });
    return { g, seen, advance: (ms: number) => (now += ms) };
  }

  it('the first Ctrl-C aborts the signal once; a second, later one exits', () => {
    const { g, seen, advance } = gate();
    expect(g.signal.aborted).toBe(false);
    g.signalled();
    expect(g.signal.aborted).toBe(true);
    expect(seen).toEqual(['first']);
    advance(800);
    g.signalled();
    expect(seen).toEqual(['first', 'second']);
  });

  it('the same keypress delivered again by npm and the launcher is not a second Ctrl-C', () => {
    const { g, seen, advance } = gate();
    g.signalled();
    advance(3);
    g.signalled();
    advance(10);
    g.signalled();
    expect(seen).toEqual(['first']);
    advance(600);
    g.signalled();
    expect(seen).toEqual(['first', 'second']);
  });
});
