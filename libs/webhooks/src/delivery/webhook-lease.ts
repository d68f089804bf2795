import type { Clock } from '@lomo/contracts';
import { DocumentConflictError, type DocumentStore } from '@lomo/read-models';
import { Collections, type LeaseDocument } from '../webhooks/webhook-documents';

/**
 * One notifier instance delivers a webhook at a time, so per-stream order and the stream states
 * have a single writer. Compare-and-set on the lease document decides; a holder that cannot renew
 * before `until` must stop. A holder stalled past its lease may still finish one request: the
 * receiver then sees a duplicate, which the event id lets it drop.
 */
export class WebhookLease {
  private version: number | undefined;

  constructor(
    private readonly documents: DocumentStore,
    private readonly webhookId: string,
    private readonly owner: string,
    private readonly leaseMs: number,
    private readonly clock: Clock,
  ) {}

  get held(): boolean {
    return this.version !== undefined;
  }

  async acquire(): Promise<boolean> {
    const current = await this.documents.get<LeaseDocument>(Collections.leases, this.webhookId);
    const now = this.clock.now();
    if (current !== undefined && current.owner !== this.owner && Date.parse(current.until) > now.getTime())
      return false;
    return this.write(current?._version ?? 0);
  }

  /** False when another instance took it over. */
  async renew(): Promise<boolean> {
    if (this.version === undefined) return false;
    return this.write(this.version);
  }

  async release(): Promise<void> {
    const version = this.version;
    this.version = undefined;
    if (version === undefined) return;
    try {
      await this.documents.delete(Collections.leases, this.webhookId, { expectedVersion: version });
    } catch (error) {
      // Taken over meanwhile: the new holder's lease stays.
      if (!(error instanceof DocumentConflictError)) throw error;
    }
  }

  private async write(expectedVersion: number): Promise<boolean> {
    const until = new Date(this.clock.now().getTime() + this.leaseMs).toISOString();
    try {
      const result = await this.documents.upsert(
        Collections.leases,
        { _id: this.webhookId, owner: this.owner, until },
        { expectedVersion },
      );
      this.version = result.version;
      return true;
    } catch (error) {
      if (!(error instanceof DocumentConflictError)) throw error;
      this.version = undefined;
      return false;
    }
  }
}
