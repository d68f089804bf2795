import type { RelayLease, RelayLeaseStore } from '@lomo/bus';
import { DocumentConflictError, type DocumentStore } from '@lomo/read-models';

const COLLECTION = 'relay_leases';

interface LeaseDocument {
  _id: string;
  holder: string;
  epoch: number;
  expiresAt: number;
  [field: string]: string | number;
}

/**
 * The relay lease on the read-model database (MongoDB), for deployments whose event store is
 * EventStoreDB and so has no shared SQLite file. Every change is a compare-and-set on the
 * document's version: two instances racing for an expired lease cannot both win.
 */
export class DocumentRelayLeaseStore implements RelayLeaseStore {
  constructor(private readonly documents: DocumentStore) {}

  async tryAcquire(relayId: string, holder: string, now: Date, ttlMs: number): Promise<RelayLease | undefined> {
    const current = await this.documents.get<LeaseDocument>(COLLECTION, relayId);
    const expiresAt = now.getTime() + ttlMs;
    if (current && current.holder !== holder && current.expiresAt > now.getTime()) return undefined;
    const epoch = !current ? 1 : current.holder === holder ? current.epoch : current.epoch + 1;
    const next: LeaseDocument = { _id: relayId, holder, epoch, expiresAt };
    return (await this.write(next, current?._version ?? 0)) ? toLease(next) : undefined;
  }

  async renew(relayId: string, holder: string, epoch: number, now: Date, ttlMs: number): Promise<boolean> {
    const current = await this.documents.get<LeaseDocument>(COLLECTION, relayId);
    if (!current || current.holder !== holder || current.epoch !== epoch) return false;
    return this.write({ ...strip(current), expiresAt: now.getTime() + ttlMs }, current._version);
  }

  async release(relayId: string, holder: string, epoch: number): Promise<void> {
    const current = await this.documents.get<LeaseDocument>(COLLECTION, relayId);
    if (!current || current.holder !== holder || current.epoch !== epoch) return;
    // Released = expired now, under a new epoch, so nothing tagged with the old one is accepted.
    await this.write({ ...strip(current), holder: '', epoch: epoch + 1, expiresAt: 0 }, current._version);
  }

  async current(relayId: string): Promise<RelayLease | undefined> {
    const current = await this.documents.get<LeaseDocument>(COLLECTION, relayId);
    return current ? toLease(strip(current)) : undefined;
  }

  private async write(document: LeaseDocument, expectedVersion: number): Promise<boolean> {
    try {
      await this.documents.upsert(COLLECTION, document, { expectedVersion });
      return true;
    } catch (error) {
      if (error instanceof DocumentConflictError) return false;
      throw error;
    }
  }
}

const strip = ({ _id, holder, epoch, expiresAt }: LeaseDocument): LeaseDocument => ({ _id, holder, epoch, expiresAt });
const toLease = (d: LeaseDocument): RelayLease => ({
  relayId: d._id,
  holder: d.holder,
  epoch: d.epoch,
  expiresAt: d.expiresAt,
});
