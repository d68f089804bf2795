import type { AllStreamResolvedEvent } from '@eventstore/db-client';
import type { LiveSubscription } from './esdb-client';

export type FeedItem =
  | { kind: 'event'; event: AllStreamResolvedEvent }
  /** Nothing arrived within the idle time asked for. */
  | { kind: 'idle' }
  /** `close()` was called. */
  | { kind: 'closed' }
  /** The server ended the subscription without an error. */
  | { kind: 'ended' };

/**
 * Turns the subscription's push-style 'data' events into one-at-a-time pulls, in arrival order,
 * so the handler runs for one event at a time. The client keeps pushing while a handler is busy;
 * above `highWater` buffered events the subscription is paused (gRPC flow control then holds the
 * server back) and resumed once the buffer is half drained. Events received before an error are
 * still handed out before the error is thrown.
 */
export class FeedQueue {
  private readonly items: AllStreamResolvedEvent[] = [];
  private failure: { error: unknown } | undefined;
  private ended = false;
  private closed = false;
  private paused = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly feed: LiveSubscription,
    private readonly highWater: number,
  ) {
    feed.on('data', (event) => {
      this.items.push(event);
      if (!this.paused && this.items.length >= this.highWater) {
        this.paused = true;
        this.feed.pause();
      }
      this.notify();
    });
    feed.on('error', (error) => {
      this.failure ??= { error };
      this.notify();
    });
    const end = () => {
      this.ended = true;
      this.notify();
    };
    feed.on('end', end);
    feed.on('close', end);
  }

  get size(): number {
    return this.items.length;
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  /** The next item; with `idleMs`, `idle` when nothing arrives in that time. */
  async next(idleMs?: number): Promise<FeedItem> {
    for (;;) {
      if (this.closed) return { kind: 'closed' };
      const event = this.items.shift();
      if (event !== undefined) {
        if (this.paused && this.items.length <= this.highWater / 2) {
          this.paused = false;
          this.feed.resume();
        }
        return { kind: 'event', event };
      }
      if (this.failure !== undefined) throw this.failure.error;
      if (this.ended) return { kind: 'ended' };
      if (!(await this.waitForNews(idleMs))) return { kind: 'idle' };
    }
  }

  private waitForNews(idleMs: number | undefined): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = idleMs === undefined ? undefined : setTimeout(() => settle(false), idleMs);
      const settle = (news: boolean) => {
        if (timer !== undefined) clearTimeout(timer);
        this.wake = undefined;
        resolve(news);
      };
      this.wake = () => settle(true);
    });
  }

  private notify(): void {
    this.wake?.();
  }
}
