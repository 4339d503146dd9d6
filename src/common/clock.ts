/**
 * The time the server acts on: when an episode was created or last stepped, when a key was revoked, and so which
 * episodes have been idle too long. One injectable source, so a test (or a replay of a recorded day) can state
 * the time instead of depending on the calendar it happens to run on.
 */
export abstract class Clock {
  abstract now(): Date;
}

/** The machine's clock. */
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock that reads what it was set to, and moves only when told (tests, tools that replay a recorded time). */
export class ManualClock extends Clock {
  private current: number;

  constructor(start: Date | string) {
    super();
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
