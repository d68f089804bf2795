import type { DocumentStore } from '@lomo/read-models';

export const UPSTREAM_INDEX_COLLECTION = 'generation_upstream_ids';

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

const key = (provider: string, id: string) => `${provider}:${id}`;
