import type { Logger } from '@nestjs/common';
import type { WebSocket } from 'ws';
import type { Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';

export type WsFlowLimits = Pick<AppConfig, 'wsMaxMessagesPerSecond' | 'wsMaxPendingMessages' | 'wsMaxBufferedBytes'>;

/** A message as it arrived, waiting for its turn; or one refused on arrival (too large), answered in its turn. */
export type Incoming = { kind: 'message'; data: Buffer; binary: boolean } | { kind: 'refused'; reason: string };

/**
 * Reading stops at WS_MAX_PENDING_MESSAGES, but the rest of the chunk last read from the socket (at most 64 KB, so
 * at most about 11,000 frames of 6 bytes) still arrives and is queued. More than this many beyond the bound cannot
 * happen while reading is paused; should it ever, the connection is closed (1008) rather than the queue grown.
 */
const ONE_READ_OF_FRAMES = 16_384;

/**
 * Flow control for one /ws connection, so a client is served as fast as it reads and no faster:
 * - messages wait in a bounded queue and are handled one at a time, in arrival order, one per turn of the event
 *   loop (so one connection's queue never holds up other requests);
 * - at most WS_MAX_MESSAGES_PER_SECOND are handled a second (a second's worth of burst); later ones wait their turn;
 * - while more than WS_MAX_BUFFERED_BYTES of answers are unread by the client, no more are produced;
 * - when WS_MAX_PENDING_MESSAGES messages (or WS_MAX_BUFFERED_BYTES of them) are waiting, the socket is no longer
 *   read, so the client's own sends block (TCP flow control) instead of the server's memory growing; reading
 *   resumes once half have been answered.
 * Nothing is dropped: every message read is answered, in order. A client that sends faster than it reads is
 * simply served at the pace it reads; one that never reads is closed by the idle timeout (SESSION_IDLE_TIMEOUT_MS).
 */
export class WsFlowControl {
  private readonly pending: Incoming[] = [];
  private pendingBytes = 0;
  private running = false;
  private paused = false;
  private closed = false;
  private tokens: number;
  private tokensAt: number;
  private flushed: (() => void) | null = null;

  constructor(
    private readonly socket: WebSocket,
    private readonly limits: WsFlowLimits,
    private readonly clock: Clock,
    private readonly handle: (incoming: Incoming) => Promise<void>,
    private readonly logger: Logger,
  ) {
    this.tokens = limits.wsMaxMessagesPerSecond;
    this.tokensAt = clock.now().getTime();
    socket.once('close', () => {
      this.closed = true;
      this.pending.length = 0;
      this.wake();
    });
  }

  /** A message read from the socket: queued for its turn. */
  push(incoming: Incoming): void {
    if (this.closed) return;
    this.pending.push(incoming);
    this.pendingBytes += incoming.kind === 'message' ? incoming.data.length : 0;
    if (this.pending.length > this.limits.wsMaxPendingMessages + ONE_READ_OF_FRAMES) {
      this.closed = true;
      this.pending.length = 0;
      this.logger.warn('closed a /ws connection whose unanswered messages kept arriving after reading was paused');
      this.socket.close(1008, 'too many messages sent ahead of their answers (WS_MAX_PENDING_MESSAGES)');
      return;
    }
    if (!this.paused && (this.pending.length >= this.limits.wsMaxPendingMessages || this.pendingBytes >= this.limits.wsMaxBufferedBytes)) {
      this.paused = true;
      this.socket.pause();
      this.logger.debug(`/ws reading paused: ${this.pending.length} messages (${this.pendingBytes} bytes) wait for an answer`);
    }
    void this.run();
  }

  /**
   * Whether the client has stopped keeping up (reading paused, or answers held unread): a close frame would wait
   * behind what it does not read, so such a connection is ended without the closing handshake.
   */
  stalled(): boolean {
    return this.paused || this.socket.bufferedAmount > this.limits.wsMaxBufferedBytes;
  }

  /** Sends an answer; its flush tells a producer waiting for the client to read that there may be room again. */
  send(text: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(text, () => this.wake());
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.pending.length > 0 && !this.closed) {
        await this.roomToAnswer();
        await this.turn();
        if (this.closed) break;
        const incoming = this.pending.shift()!;
        this.pendingBytes -= incoming.kind === 'message' ? incoming.data.length : 0;
        if (this.paused && this.pending.length <= this.limits.wsMaxPendingMessages / 2 && this.pendingBytes < this.limits.wsMaxBufferedBytes / 2) {
          this.paused = false;
          this.socket.resume();
          this.logger.debug('/ws reading resumed');
        }
        await this.handle(incoming).catch(() => undefined);
        // A message whose handling never waits on I/O resolves in microtasks alone: without a turn of the event loop
        // between messages, one connection's queue would hold every other request (and /health) until it ran dry.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.running = false;
    }
  }

  /** Waits while the client leaves more than WS_MAX_BUFFERED_BYTES of answers unread. */
  private async roomToAnswer(): Promise<void> {
    let reported = false;
    while (!this.closed && this.socket.bufferedAmount > this.limits.wsMaxBufferedBytes) {
      if (!reported) {
        reported = true;
        this.logger.debug(`/ws answers held: ${this.socket.bufferedAmount} bytes unread by the client`);
      }
      await new Promise<void>((resolve) => (this.flushed = resolve));
    }
  }

  /** Waits for the next of WS_MAX_MESSAGES_PER_SECOND (0: no cap), on the server's clock. */
  private async turn(): Promise<void> {
    const perSecond = this.limits.wsMaxMessagesPerSecond;
    if (perSecond === 0) return;
    while (!this.closed) {
      const now = this.clock.now().getTime();
      this.tokens = Math.min(perSecond, this.tokens + (Math.max(0, now - this.tokensAt) * perSecond) / 1000);
      this.tokensAt = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      const waitMs = Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / perSecond));
      await new Promise<void>((resolve) => {
        this.flushed = resolve; // a close wakes it early
        setTimeout(resolve, waitMs).unref();
      });
    }
  }

  private wake(): void {
    const resolve = this.flushed;
    this.flushed = null;
    resolve?.();
  }
}
