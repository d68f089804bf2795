/**
 * The lease on rebuilding a set of projections (the `rebuild` field of their alias documents,
 * projection-aliases.ts), renewed on progress a third of a lease after the last renewal, by the
 * runner's clock. A renewal that failed is tried again at the next batch, not a third later.
 */
export class RebuildLease {
  private renewedAt: number;
  private renewing: Promise<void> | undefined;

  constructor(
    private readonly renew: () => Promise<void>,
    private readonly leaseMs: number,
    private readonly now: () => Date,
  ) {
    this.renewedAt = now().getTime();
  }

  /** Renews when a third of the lease passed; a call while a renewal runs does nothing. */
  async renewIfDue(): Promise<void> {
    if (this.renewing !== undefined || this.now().getTime() - this.renewedAt <= this.leaseMs / 3) return;
    const started = this.now().getTime();
    this.renewing = this.renew();
    try {
      await this.renewing;
      this.renewedAt = started;
    } finally {
      this.renewing = undefined;
    }
  }
}
