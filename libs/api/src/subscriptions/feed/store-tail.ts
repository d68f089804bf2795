import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type Subscription } from '@lomo/eventstore';
import { LOGGER, type Logger } from '@lomo/observability';

/**
 * "Something was appended": one tail of the store per API instance, started when the first feed
 * goes live, that only counts appends. Feeds never take events from it; each reads from its own
 * position, so a feed's catch-up and its live phase are the same loop and no hand-over between
 * two sources can drop or repeat an event. The count lets a feed wait for appends made after
 * its last read without missing one that landed in between.
 */
@Injectable()
export class StoreTail implements OnApplicationShutdown {
  private readonly logger: Logger;
  private subscription: Subscription | undefined;
  private appended = 0;
  private readonly waiters = new Set<() => void>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'store-tail' });
  }

  /** The append count now; pass it to `waitForAppend` after reading. */
  mark(): number {
    this.ensureStarted();
    return this.appended;
  }

  /** Resolves after an append later than `mark`, after `timeoutMs`, or when `signal` aborts. */
  waitForAppend(mark: number, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (this.appended > mark || signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    for (const wake of [...this.waiters]) wake();
    await subscription?.stop();
  }

  private ensureStarted(): void {
    if (this.subscription !== undefined) return;
    const subscription = this.store.subscribeToAll({ fromPosition: 'end' }, () => {
      this.appended += 1;
      for (const wake of [...this.waiters]) wake();
    });
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => {
        // Feeds fall back to their idle poll; the next feed that waits starts a new tail.
        this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'store tail ended');
        if (this.subscription === subscription) this.subscription = undefined;
      },
    );
  }
}
