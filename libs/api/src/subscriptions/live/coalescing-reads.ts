import { retry } from '@lomo/resilience';

/** A read the store calls retriable (a timed-out or dropped connection) is tried again before the subscription fails. */
const readRetry = { initialDelayMs: 200, maxDelayMs: 2_000, maxAttempts: 4 };

/**
 * Reads documents after their change notices, one at a time, each id at most once per round: a
 * burst of notices for one document costs one read of its latest state, not one per notice.
 * Held until `start()`, so a subscription's first state goes out before any update. Reading
 * after the notice is what keeps a client from seeing a change before the read model has it.
 */
export class CoalescingReads {
  private readonly dirty = new Set<string>();
  private started = false;
  private running = false;

  constructor(
    private readonly read: (id: string) => Promise<void>,
    private readonly signal: AbortSignal,
    /** Ids waiting beyond this are a subscriber that cannot keep up. */
    private readonly capacity: number,
    private readonly onFailure: (error: unknown) => void,
    private readonly onOverflow: () => void,
    /** Told of each read tried again (a slow or dropped store connection is worth a log line). */
    private readonly onRetry: (error: unknown, attempt: number) => void = () => undefined,
  ) {}

  mark(id: string): void {
    if (this.signal.aborted) return;
    this.dirty.add(id);
    if (this.dirty.size > this.capacity) {
      this.dirty.clear();
      this.onOverflow();
      return;
    }
    this.drain();
  }

  start(): void {
    this.started = true;
    this.drain();
  }

  /** True when no read runs and none waits. */
  get idle(): boolean {
    return !this.running && this.dirty.size === 0;
  }

  private drain(): void {
    if (!this.started || this.running) return;
    this.running = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      while (!this.signal.aborted) {
        const [id] = this.dirty;
        if (id === undefined) break;
        this.dirty.delete(id);
        await retry(() => this.read(id), { ...readRetry, signal: this.signal, onRetry: this.onRetry });
      }
    } catch (error) {
      this.dirty.clear();
      this.onFailure(error);
    } finally {
      this.running = false;
    }
    // A mark that arrived while the last read was finishing.
    if (this.dirty.size > 0 && !this.signal.aborted) this.drain();
  }
}
