import type { ApiTokenRecord } from './api-token';
import type { ApiTokenStore, NewApiToken, RevokeOutcome } from './api-token-store.port';

/** The most a revocation may take to reach every API instance; LOMO_AUTH_TOKEN_CACHE_MS cannot exceed it. */
export const MAX_REVOCATION_DELAY_MS = 5_000;

/**
 * Remembers live lookups for at most `ttlMs`, so an instance asks the shared store about a token
 * once per `ttlMs` instead of on every request. Only live tokens are remembered: a token created
 * on another instance is accepted at once, and a revocation on another instance reaches this one
 * when its entry expires, i.e. within `ttlMs` (≤ MAX_REVOCATION_DELAY_MS). A revocation through
 * this instance drops the entry at once. `ttlMs` 0 passes every call through.
 */
export class CachingApiTokenStore implements ApiTokenStore {
  private readonly live = new Map<string, { record: ApiTokenRecord; until: number }>();

  constructor(
    private readonly inner: ApiTokenStore,
    private readonly ttlMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {
    if (!Number.isInteger(ttlMs) || ttlMs < 0 || ttlMs > MAX_REVOCATION_DELAY_MS) {
      throw new RangeError(`The token cache holds entries 0 to ${MAX_REVOCATION_DELAY_MS} ms, not ${ttlMs}`);
    }
  }

  insert(token: NewApiToken): Promise<ApiTokenRecord> {
    return this.inner.insert(token);
  }

  async findActiveByHash(secretHash: string): Promise<ApiTokenRecord | undefined> {
    if (this.ttlMs === 0) return this.inner.findActiveByHash(secretHash);
    const at = this.now();
    const cached = this.live.get(secretHash);
    if (cached !== undefined && cached.until > at) return cached.record;
    this.live.delete(secretHash);
    const record = await this.inner.findActiveByHash(secretHash);
    // The entry's age counts from before the read: a revocation committed while it ran is older.
    if (record !== undefined) this.live.set(secretHash, { record, until: at + this.ttlMs });
    this.evictExpired(at);
    return record;
  }

  list(filter?: { workspaceId?: string; includeRevoked?: boolean }): Promise<ApiTokenRecord[]> {
    return this.inner.list(filter);
  }

  async revoke(id: string, at: string): Promise<RevokeOutcome> {
    const outcome = await this.inner.revoke(id, at);
    for (const [hash, entry] of this.live) if (entry.record.id === id) this.live.delete(hash);
    return outcome;
  }

  close(): Promise<void> {
    this.live.clear();
    return this.inner.close();
  }

  /** Keeps the map to the tokens seen in the last `ttlMs`. */
  private evictExpired(at: number): void {
    if (this.live.size < 1_000) return;
    for (const [hash, entry] of this.live) if (entry.until <= at) this.live.delete(hash);
  }
}
