export interface RateDecision {
  allowed: boolean;
  /** When refused: how long until `cost` tokens are there again. */
  retryAfterMs: number;
  remaining: number;
}

export interface TokenBucketOptions {
  /** Bucket size: the burst a client may send at once. */
  burst: number;
  /** Refill rate: the sustained requests per second. */
  perSecond: number;
  now?: () => number;
  /** Buckets kept in memory before full (idle) ones are dropped. */
  maxBuckets?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * One token bucket per key (API token id), in this process's memory: with several API instances
 * each enforces its own share, which bounds a client without a shared store on the request path.
 */
export class TokenBucketRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly maxBuckets: number;

  constructor(private readonly options: TokenBucketOptions) {
    this.now = options.now ?? Date.now;
    this.maxBuckets = options.maxBuckets ?? 100_000;
  }

  take(key: string, cost = 1): RateDecision {
    const now = this.now();
    const bucket = this.refilled(key, now);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { allowed: true, retryAfterMs: 0, remaining: Math.floor(bucket.tokens) };
    }
    const missing = Math.min(cost, this.options.burst) - bucket.tokens;
    const retryAfterMs = Math.ceil((missing / this.options.perSecond) * 1000);
    return { allowed: false, retryAfterMs, remaining: Math.floor(bucket.tokens) };
  }

  private refilled(key: string, now: number): Bucket {
    const existing = this.buckets.get(key);
    if (existing === undefined) {
      if (this.buckets.size >= this.maxBuckets) this.dropFullBuckets(now);
      const fresh = { tokens: this.options.burst, at: now };
      this.buckets.set(key, fresh);
      return fresh;
    }
    const elapsed = Math.max(0, now - existing.at) / 1000;
    existing.tokens = Math.min(this.options.burst, existing.tokens + elapsed * this.options.perSecond);
    existing.at = now;
    return existing;
  }

  /** A bucket that would be full again is the same as no bucket. */
  private dropFullBuckets(now: number): void {
    for (const [key, bucket] of this.buckets) {
      const tokens = bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.options.perSecond;
      if (tokens >= this.options.burst) this.buckets.delete(key);
    }
  }
}
