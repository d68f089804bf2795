import { MAX_BATCH_SIZE, type DocumentStore, type StoredDocument } from '../../document-store/document-store.port';
import type { KnownEvent } from './known-event';
import type { ProjectionDocument } from './projection-definition';
import type { StreamRevisions } from './stream-revisions';

/** One document while events are applied to it. */
export interface DocumentSlot {
  id: string;
  document: ProjectionDocument | undefined;
  /**
   * The document's `_streams`, kept apart and updated in place while a batch runs (copying it per
   * event cost a rebuild a tenth of its time); put back on the document before it is written.
   */
  streams: StreamRevisions;
  /** Stored `_version` the batch started from (0 = absent): the compare-and-set expectation. */
  version: number;
  dirty: boolean;
  /** The document already had an event of the batch (a crash after the write): notify again. */
  reemit: boolean;
  /** Events applied in this batch, in order, to replay on a fresh copy after a conflict. */
  applied: KnownEvent[];
}

export function withoutVersion(stored: StoredDocument<ProjectionDocument>): ProjectionDocument {
  const { _version: _ignored, ...document } = stored;
  return document as ProjectionDocument;
}

/** The document as it is written: with its stream revisions. */
export const documentOf = (slot: DocumentSlot): ProjectionDocument | undefined =>
  slot.document === undefined ? undefined : Object.assign(slot.document, { _streams: slot.streams });

export interface DocumentWorkingSetOptions {
  /** Fresh collection, single writer (a rebuild): documents survive batches, never written are absent. */
  exclusive: boolean;
  /** Clean documents kept between batches in exclusive mode. */
  capacity?: number;
}

/**
 * The documents being applied to. Live, it starts empty every batch (another instance may write
 * in between, and compare-and-set catches that). In a rebuild it is a cache across batches:
 * nothing else writes the fresh collection, so a document is read at most once after eviction,
 * and dirty documents are written only when enough of them piled up.
 */
export class DocumentWorkingSet {
  private readonly slots = new Map<string, DocumentSlot>();
  private readonly dirty = new Set<DocumentSlot>();
  /** Exclusive mode: ids ever written, so a miss on any other id needs no read. */
  private readonly written = new Set<string>();
  private readonly capacity: number;

  constructor(
    private readonly documents: DocumentStore,
    readonly collection: string,
    private readonly options: DocumentWorkingSetOptions,
  ) {
    this.capacity = options.capacity ?? Number.POSITIVE_INFINITY;
  }

  get dirtyCount(): number {
    return this.dirty.size;
  }

  /** The slot when it needs no read: cached, or (exclusive) a document never written. */
  cachedSlot(id: string): DocumentSlot | undefined {
    const cached = this.slots.get(id);
    if (cached !== undefined) return cached;
    if (!this.options.exclusive || this.written.has(id)) return undefined;
    return this.remember(id, undefined);
  }

  async slot(id: string): Promise<DocumentSlot> {
    const cached = this.cachedSlot(id);
    if (cached !== undefined) return cached;
    return this.remember(id, await this.documents.get<ProjectionDocument>(this.collection, id));
  }

  markDirty(slot: DocumentSlot): void {
    slot.dirty = true;
    this.dirty.add(slot);
  }

  /** Slots changed or to be notified about, in first-touched order. */
  touched(): DocumentSlot[] {
    return [...this.slots.values()].filter((s) => s.dirty || s.reemit);
  }

  /** Exclusive mode: writes every dirty document with unconditional bulk writes. */
  async flushBulk(): Promise<void> {
    const dirty = [...this.dirty];
    for (let i = 0; i < dirty.length; i += MAX_BATCH_SIZE) {
      const operations = dirty.slice(i, i + MAX_BATCH_SIZE).flatMap((slot) => {
        const document = documentOf(slot);
        return document === undefined ? [] : [{ type: 'upsert' as const, document }];
      });
      await this.documents.bulkWrite(this.collection, operations);
    }
    for (const slot of dirty) {
      this.written.add(slot.id);
      slot.dirty = false;
    }
    this.dirty.clear();
  }

  /** Ends a batch: live forgets everything; exclusive keeps documents, evicting clean ones over capacity. */
  endBatch(): void {
    if (!this.options.exclusive) {
      this.slots.clear();
      this.dirty.clear();
      return;
    }
    // Oldest first (Map order): work on a task is bursty, so what was loaded long ago is rarely
    // needed again, and a miss costs one read. Cheaper than keeping a true LRU order per access.
    for (const [id, slot] of this.slots) {
      if (this.slots.size <= this.capacity) break;
      if (!slot.dirty) this.slots.delete(id);
    }
  }

  private remember(id: string, stored: StoredDocument<ProjectionDocument> | undefined): DocumentSlot {
    const document = stored === undefined ? undefined : withoutVersion(stored);
    const slot: DocumentSlot = {
      id,
      document,
      streams: { ...document?._streams },
      version: stored?._version ?? 0,
      dirty: false,
      reemit: false,
      applied: [],
    };
    this.slots.set(id, slot);
    return slot;
  }
}
