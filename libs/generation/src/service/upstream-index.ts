import type { DocumentStore } from '@lomo/read-models';

export const UPSTREAM_INDEX_COLLECTION = 'generation_upstream_ids';
export const CALLBACK_EVENTS_COLLECTION = 'generation_callback_events';

/**
 * Which job an upstream id belongs to: a callback names the upstream's job, and the job stream is
 * keyed by ours. Written before the upstream id is appended to the job (so a callback that finds
 * the job submitted always finds its id here), kept in memory too (hot path of every callback).
 */
export class UpstreamIndex {
  private readonly memory = new Map<string, string>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly maxCached = 50_000,
  ) {}

  async record(provider: string, upstreamJobId: string, jobId: string): Promise<void> {
    await this.documents.upsert(UPSTREAM_INDEX_COLLECTION, { _id: key(provider, upstreamJobId), jobId, provider });
    this.remember(key(provider, upstreamJobId), jobId);
  }

  async jobOf(provider: string, upstreamJobId: string): Promise<string | undefined> {
    const k = key(provider, upstreamJobId);
    const known = this.memory.get(k);
    if (known !== undefined) return known;
    const stored = await this.documents.get<{ _id: string; jobId: string }>(UPSTREAM_INDEX_COLLECTION, k);
    if (stored === undefined) return undefined;
    this.remember(k, stored.jobId);
    return stored.jobId;
  }

  private remember(k: string, jobId: string): void {
    this.memory.set(k, jobId);
    if (this.memory.size > this.maxCached) {
      const oldest = this.memory.keys().next().value;
      if (oldest !== undefined) this.memory.delete(oldest);
    }
  }
}

/**
 * Callback deliveries already processed, by the upstream's event id, so a replayed delivery is
 * refused (409) and changes nothing, across restarts. Recorded after processing: a delivery
 * whose processing crashed is processed again when redelivered (every step is idempotent).
 * Ids are kept in memory and written behind in batches (`flush`, also on stop): a crash can lose
 * the last batch, and a redelivery of one of those is then processed again, which the job's own
 * rules make a no-op (progress never goes back, a final job never moves, persisted progress
 * carries its callback id on the job stream).
 */
export class CallbackLedger {
  private readonly seen = new Map<string, true>();
  /** Deliveries being processed now: a concurrent duplicate is a replay too. */
  private readonly processing = new Set<string>();
  private pending: string[] = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly documents: DocumentStore,
    private readonly maxCached = 200_000,
    private readonly batchSize = 500,
  ) {}

  async seenBefore(provider: string, eventId: string): Promise<boolean> {
    const k = key(provider, eventId);
    if (this.seen.has(k)) return true;
    return (await this.documents.get(CALLBACK_EVENTS_COLLECTION, k)) !== undefined;
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
    this.seen.set(k, true);
    if (this.seen.size > this.maxCached) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    this.pending.push(k);
    if (this.pending.length >= this.batchSize) void this.flush().catch(() => undefined);
  }

  /** Writes what is pending; callers await it on stop and on a timer. */
  async flush(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.documents
      .bulkWrite(
        CALLBACK_EVENTS_COLLECTION,
        batch.map((id) => ({ type: 'upsert' as const, document: { _id: id } })),
      )
      .then(() => undefined)
      .catch((error: unknown) => {
        this.pending.unshift(...batch);
        throw error;
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }
}

const key = (provider: string, id: string) => `${provider}:${id}`;
