/**
 * Ctrl-C as the runner reads it: the first aborts `signal` (stop taking cells, abandon the model calls in flight,
 * report their episodes), a second exits at once.
 *
 * One Ctrl-C can arrive more than once: the terminal sends SIGINT to every process of the foreground group (npm,
 * the launcher, the tool), and npm and tools/launch/launch.js each pass theirs on to their child as well. So a
 * SIGINT within `echoWindowMs` of the first is the same keypress, not a second one.
 */
export class InterruptGate {
  private readonly controller = new AbortController();
  private firstAt: number | null = null;
  private readonly now: () => number;
  private readonly echoWindowMs: number;

  constructor(
    private readonly handlers: {
      onFirst?: () => void;
      onSecond: () => void;
      now?: () => number;
      echoWindowMs?: number;
    },
  ) {
    this.now = handlers.now ?? Date.now;
    this.echoWindowMs = handlers.echoWindowMs ?? 500;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  signalled(): void {
    const at = this.now();
    if (this.firstAt === null) {
      this.firstAt = at;
      this.handlers.onFirst?.();
      this.controller.abort();
      return;
    }
    if (at - this.firstAt < this.echoWindowMs) return;
    this.handlers.onSecond();
  }
}
