/** Where progress goes: stderr, in the CLI. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** The run's cells, and how many were finished before this runner started (a resumed run). */
  total: number;
  finishedBefore: number;
  /** A bar redrawn in place (a terminal), or one plain line per cell (a log file, CI). Default: the stream's isTTY. */
  tty?: boolean;
  now?: () => number;
  /** How often the bar is redrawn between events (its ETA and clock move); 0: only on events. */
  redrawMs?: number;
}

const BAR_WIDTH = 24;

/**
 * The run's progress on stderr: on a terminal one line redrawn in place — a bar, cells finished of the run's,
 * episodes in flight, failed attempts, the ETA — and plain lines otherwise, one per cell that ends. The ETA is this
 * runner's pace so far (cells finished per second since it started) applied to the cells left.
 */
export class ProgressDisplay {
  private readonly tty: boolean;
  private readonly now: () => number;
  private readonly startedAt: number;
  private finished: number;
  private finishedHere = 0;
  private failed = 0;
  private active = 0;
  private shown = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly stream: ProgressStream,
    private readonly options: ProgressOptions,
  ) {
    this.tty = options.tty ?? Boolean(stream.isTTY);
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.finished = options.finishedBefore;
    if (this.tty) {
      this.draw();
      const every = options.redrawMs ?? 1000;
      if (every > 0) {
        this.timer = setInterval(() => this.draw(), every);
        this.timer.unref();
      }
    } else {
      this.stream.write(`progress: ${this.summary()}\n`);
    }
  }

  cellStarted(): void {
    this.active++;
    if (this.tty) this.draw();
  }

  cellFinished(cell: string): void {
    this.active = Math.max(0, this.active - 1);
    this.finished++;
    this.finishedHere++;
    this.event(`finished ${cell}`);
  }

  cellFailed(cell: string, reason: string): void {
    this.active = Math.max(0, this.active - 1);
    this.failed++;
    this.event(`failed ${cell} (${reason}); it will be filled again`);
  }

  /** A line for stderr (a warning) that must not be written over by the bar. */
  note(line: string): void {
    this.above(() => this.stream.write(`${line}\n`));
  }

  /** Runs `write` (lines to stdout, to the same terminal) with the bar out of the way, then draws it again. */
  above(write: () => void): void {
    if (this.tty && this.shown) this.stream.write('\r\x1b[2K');
    write();
    if (this.tty) this.draw();
  }

  /** Leaves the bar's last state on its own line and stops redrawing. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.tty && this.shown) {
      this.draw();
      this.stream.write('\n');
      this.shown = false;
    }
  }

  /** "12/30 cells (40%), 3 in flight, 1 failed, ETA 2m 05s": what the bar and the plain lines say. */
  summary(): string {
    const { total } = this.options;
    const percent = total === 0 ? 100 : Math.floor((this.finished / total) * 100);
    const parts = [`${this.finished}/${total} cells (${percent}%)`];
    if (this.active) parts.push(`${this.active} in flight`);
    if (this.failed) parts.push(`${this.failed} failed`);
    parts.push(`ETA ${this.eta()}`);
    return parts.join(', ');
  }

  private event(what: string): void {
    if (this.tty) this.draw();
    else this.stream.write(`progress: ${this.summary()}: ${what}\n`);
  }

  private eta(): string {
    const left = this.options.total - this.finished;
    if (left <= 0) return 'done';
    if (this.finishedHere === 0) return '--';
    const perCellMs = (this.now() - this.startedAt) / this.finishedHere;
    return formatDuration(perCellMs * left);
  }

  private draw(): void {
    const { total } = this.options;
    const filled = total === 0 ? BAR_WIDTH : Math.round((this.finished / total) * BAR_WIDTH);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
    const line = `${bar} ${this.summary()}`;
    const width = this.stream.columns ?? 0;
    this.stream.write(`\r\x1b[2K${width > 1 ? line.slice(0, width - 1) : line}`);
    this.shown = true;
  }
}

/** 4s, 2m 05s, 1h 02m. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
