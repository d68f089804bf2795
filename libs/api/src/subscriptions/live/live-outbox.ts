import { slowConsumer } from '../live-errors';

type Waiter<T> = { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void };

/**
 * What one subscription has produced and its client not yet taken: an async iterator with a
 * bounded buffer. graphql-ws pulls the next payload only after the previous one was written to
 * the socket, so a client that does not read leaves payloads here; instead of growing, the outbox
 * then fails with SLOW_CONSUMER. Payloads pushed under a key replace one still waiting under
 * that key (a newer state of the same document supersedes the older, in its place in the queue).
 * `return()` (the client completed, the socket closed) answers at once, even while a `next()`
 * waits, and aborts `signal` so producers stop.
 */
export class LiveOutbox<T> implements AsyncIterableIterator<T> {
  private readonly pending = new Map<string, T>();
  private readonly waiters: Waiter<T>[] = [];
  private readonly spaceWaiters = new Set<() => void>();
  private readonly aborter = new AbortController();
  private failure: unknown;
  private sequence = 0;

  constructor(
    private readonly capacity: number,
    /** Told once when the outbox fails for a slow consumer (the socket may be closed). */
    private readonly onSlowConsumer: (error: Error) => void = () => undefined,
  ) {}

  /** Aborted when the subscription ends, for whatever reason. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  get size(): number {
    return this.pending.size;
  }

  /** False when the subscription has ended (the payload is dropped). */
  push(payload: T, key?: string): boolean {
    if (this.signal.aborted) return false;
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      waiter.resolve({ value: payload, done: false });
      return true;
    }
    const slot = key ?? `#${this.sequence++}`;
    if (!this.pending.has(slot) && this.pending.size >= this.capacity) {
      this.slow({ buffered: this.pending.size, capacity: this.capacity });
      return false;
    }
    this.pending.set(slot, payload);
    return true;
  }

  /**
   * For producers that can wait (the event feed): resolves true once there is room, false when
   * the subscription ended meanwhile; a consumer that takes nothing for `timeoutMs` fails it.
   */
  waitForRoom(timeoutMs: number): Promise<boolean> {
    if (this.signal.aborted) return Promise.resolve(false);
    if (this.pending.size < this.capacity) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const settle = () => {
        clearTimeout(timer);
        this.spaceWaiters.delete(settle);
        resolve(!this.signal.aborted);
      };
      const timer = setTimeout(() => {
        this.slow({ buffered: this.pending.size, waitedMs: timeoutMs });
        settle();
      }, timeoutMs);
      this.spaceWaiters.add(settle);
    });
  }

  /** Ends the subscription with an error: what is buffered is dropped, the next `next()` rejects. */
  fail(error: unknown): void {
    if (this.signal.aborted) return;
    this.pending.clear();
    this.failure = error;
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      this.failure = undefined;
      waiter.reject(error);
    }
    this.finish();
  }

  next(): Promise<IteratorResult<T>> {
    const [first] = this.pending;
    if (first !== undefined) {
      this.pending.delete(first[0]);
      for (const wake of [...this.spaceWaiters]) wake();
      return Promise.resolve({ value: first[1], done: false });
    }
    if (this.failure !== undefined) {
      const error = this.failure;
      this.failure = undefined;
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (this.signal.aborted) return Promise.resolve({ value: undefined, done: true });
    return new Promise<IteratorResult<T>>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    this.pending.clear();
    this.failure = undefined;
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<T>> {
    void this.return();
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private slow(details: Record<string, unknown>): void {
    if (this.signal.aborted) return;
    const error = slowConsumer(details);
    this.fail(error);
    this.onSlowConsumer(error);
  }

  private finish(): void {
    if (!this.signal.aborted) this.aborter.abort();
    for (const waiter of this.waiters.splice(0)) waiter.resolve({ value: undefined, done: true });
    for (const wake of [...this.spaceWaiters]) wake();
  }
}
