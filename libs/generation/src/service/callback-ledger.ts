import type { DocumentStore } from '@lomo/read-models';

export const CALLBACK_BATCHES_COLLECTION = 'generation_callback_batches';

type CallbackBatchDocument = {
  _id: string;
  /** When the batch was written (the writer's clock), for loading and pruning by time. */
  recordedAtMs: number;
  /** `provider:eventId` of each delivery processed. */
  keys: string[];
};

export interface CallbackLedgerOptions {
  /**
   * How long a processed delivery must be remembered: a provider refuses a delivery whose signed
   * timestamp is further than its tolerance from now (verifyCallback), so a replay can only pass
   * within twice the tolerance of the first delivery. Older deliveries need no ledger.
   */
  windowMs: number;
  nowMs: () => number;
  newId: () => string;
  batchSize?: number;
  /** A bound on memory under a flood; forgetting a delivery early only lets its replay be a no-op. */
  maxRemembered?: number;
}

/** Other processes' batches may land with a slightly earlier stamp than the last one loaded. */
const LOAD_OVERLAP_MS = 10_000;
const PAGE = 200;

/**
 * Callback deliveries already processed, by the upstream's event id, so a replayed delivery is
 * refused (409) and changes nothing, across restarts and processes. The hot path (every callback)
 * is memory only: ids are recorded after processing and written behind, one document per batch
 * (`flush`, every second and on stop); `refresh` loads the batches of the replay window on start
 * and other processes' new ones every second. Batches older than the window are deleted, so the
 * ledger stays the size of the window.
 *
 * What a crash or another process can still let through (the last unflushed batch, a batch not
 * loaded yet) is processed again, which the job's own rules make a no-op: progress never goes
 * back, a final job never moves, persisted progress carries its callback id on the job stream.
 */
export class CallbackLedger {
  /** key → when it was recorded, roughly oldest first. */
  private readonly seen = new Map<string, number>();
  /** Deliveries being processed now: a concurrent duplicate is a replay too. */
  private readonly processing = new Set<string>();
  /** Batches already folded into `seen` (own and loaded), by id → recordedAtMs. */
  private readonly batches = new Map<string, number>();
  private pending: string[] = [];
  private flushing: Promise<void> | undefined;
  private loadedUpToMs: number | undefined;
  private indexed = false;
  private readonly batchSize: number;

  constructor(
    private readonly documents: DocumentStore,
    private readonly options: CallbackLedgerOptions,
  ) {
    this.batchSize = options.batchSize ?? 500;
  }

  seenBefore(provider: string, eventId: string): boolean {
    return this.seen.has(key(provider, eventId));
  }

  /**
   * Takes a delivery for processing (after `seenBefore` said no): false when it was recorded or
   * is being processed already. `release` hands it back, recorded when it was processed.
   */
  claim(provider: string, eventId: string): boolean {
    const k = key(provider, eventId);
    if (this.seen.has(k) || this.processing.has(k)) return false;
    this.processing.add(k);
    return true;
  }

  release(provider: string, eventId: string, processed: boolean): void {
    this.processing.delete(key(provider, eventId));
    if (processed) this.record(provider, eventId);
  }

  record(provider: string, eventId: string): void {
    const k = key(provider, eventId);
    if (this.seen.has(k)) return;
    this.remember(k, this.options.nowMs());
    this.pending.push(k);
    if (this.pending.length >= this.batchSize) void this.flush().catch(() => undefined);
  }

  /** Writes what is pending as one batch; callers await it on stop and on a timer. */
  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.pending.length === 0) return;
    const keys = this.pending;
    this.pending = [];
    const batch: CallbackBatchDocument = { _id: this.options.newId(), recordedAtMs: this.options.nowMs(), keys };
    this.flushing = this.ensureIndex()
      .then(() => this.documents.upsert(CALLBACK_BATCHES_COLLECTION, { ...batch }))
      .then(() => {
        this.batches.set(batch._id, batch.recordedAtMs);
      })
      .catch((error: unknown) => {
        this.pending.unshift(...keys);
        throw error;
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  /**
   * Loads the batches recorded since the last load (all of the window the first time), forgets
   * what is older than the window, in memory and in the store.
   */
  async refresh(): Promise<void> {
    await this.ensureIndex();
    const now = this.options.nowMs();
    const windowStart = now - this.options.windowMs;
    const since = Math.max(windowStart, (this.loadedUpToMs ?? windowStart) - LOAD_OVERLAP_MS);
    let newest = this.loadedUpToMs ?? windowStart;
    let after: string | undefined;
    for (;;) {
      const page = await this.documents.find<CallbackBatchDocument>(CALLBACK_BATCHES_COLLECTION, {
        filter: { recordedAtMs: { $gte: since } },
        sort: [['recordedAtMs', 1]],
        limit: PAGE,
        ...(after !== undefined ? { after } : {}),
      });
      for (const batch of page.items) {
        newest = Math.max(newest, batch.recordedAtMs);
        if (this.batches.has(batch._id)) continue;
        this.batches.set(batch._id, batch.recordedAtMs);
        for (const k of batch.keys) if (!this.seen.has(k)) this.remember(k, batch.recordedAtMs);
      }
      if (!page.hasMore || page.endCursor === undefined) break;
      after = page.endCursor;
    }
    this.loadedUpToMs = newest;
    await this.prune(windowStart);
  }

  private async prune(windowStart: number): Promise<void> {
    for (const [k, at] of this.seen) {
      if (at >= windowStart) break;
      this.seen.delete(k);
    }
    for (const [id, at] of this.batches) if (at < windowStart) this.batches.delete(id);
    const old = await this.documents.find<CallbackBatchDocument>(CALLBACK_BATCHES_COLLECTION, {
      filter: { recordedAtMs: { $lt: windowStart } },
      sort: [['recordedAtMs', 1]],
      limit: PAGE,
    });
    if (old.items.length > 0)
      await this.documents.bulkWrite(
        CALLBACK_BATCHES_COLLECTION,
        old.items.map((b) => ({ type: 'delete' as const, id: b._id })),
      );
  }

  private remember(k: string, atMs: number): void {
    this.seen.set(k, atMs);
    if (this.seen.size > (this.options.maxRemembered ?? 1_000_000)) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }

  private async ensureIndex(): Promise<void> {
    if (this.indexed) return;
    await this.documents.ensureIndexes(CALLBACK_BATCHES_COLLECTION, [{ fields: { recordedAtMs: 1 } }]);
    this.indexed = true;
  }
}

const key = (provider: string, id: string) => `${provider}:${id}`;
