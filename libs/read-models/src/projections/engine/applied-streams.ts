import { categoryOf } from '@lomo/contracts';
import { DocumentConflictError } from '../../document-store/document-store.errors';
import {
  MAX_BATCH_SIZE,
  type DocumentInput,
  type DocumentStore,
  type StoredDocument,
} from '../../document-store/document-store.port';
import { ProjectionWriteConflictError } from './errors';

/**
 * One document per source stream in `<physical>_streams`: every event of the stream up to
 * `revision` has been applied to every document of the collection it touches. Written only after
 * those documents, so it may lag them (a crash in between) but never lead them. It is what tells a
 * document that fans out from a shared stream (a message of a main stream, an inbox item of a
 * task stream) that it missed an event, and what consistency tokens are checked against.
 */
export type AppliedStreamDocument = DocumentInput & {
  workspaceId: string;
  category: string;
  revision: number;
};

interface Entry {
  revision: number;
  /** Stored `_version`, 0 when the document does not exist. */
  version: number;
  workspaceId: string;
  dirty: boolean;
}

const MAX_WRITE_ATTEMPTS = 20;

export interface AppliedStreamsOptions {
  /**
   * The collection started empty and this instance is its only writer (a rebuild): a stream
   * missing from the cache is absent, with no read, and writes are unconditional bulk writes.
   */
  exclusive: boolean;
  /** Clean entries kept in memory; beyond it the oldest are forgotten (re-read on demand). */
  capacity?: number;
}

export class AppliedStreams {
  private readonly cache = new Map<string, Entry>();
  private readonly capacity: number;

  constructor(
    private readonly documents: DocumentStore,
    readonly collection: string,
    private readonly options: AppliedStreamsOptions,
  ) {
    this.capacity = options.capacity ?? 200_000;
  }

  /** Loads the streams not cached yet, in batches. */
  async preload(streamIds: Iterable<string>): Promise<void> {
    if (this.options.exclusive) return;
    const missing = [...new Set(streamIds)].filter((id) => !this.cache.has(id));
    for (let i = 0; i < missing.length; i += MAX_BATCH_SIZE) {
      const chunk = missing.slice(i, i + MAX_BATCH_SIZE);
      const found = await this.documents.getMany<AppliedStreamDocument>(this.collection, chunk);
      const byId = new Map(found.map((d) => [d._id, d]));
      for (const id of chunk) this.remember(id, byId.get(id));
    }
  }

  /** The revision when it is known without a read (cached, or an exclusive writer's miss). */
  known(streamId: string): number | undefined {
    const cached = this.cache.get(streamId);
    if (cached !== undefined) return cached.revision;
    return this.options.exclusive ? -1 : undefined;
  }

  /** -1 when nothing of the stream was applied. */
  async revision(streamId: string): Promise<number> {
    const cached = this.cache.get(streamId);
    if (cached !== undefined) return cached.revision;
    if (this.options.exclusive) return -1;
    return this.reload(streamId);
  }

  /** Reads the stored revision again: another instance may have advanced it. */
  async reload(streamId: string): Promise<number> {
    const cached = this.cache.get(streamId);
    if (this.options.exclusive || cached?.dirty) return cached?.revision ?? -1;
    const stored = await this.documents.get<AppliedStreamDocument>(this.collection, streamId);
    return this.remember(streamId, stored).revision;
  }

  advance(streamId: string, revision: number, workspaceId: string): void {
    const entry = this.cache.get(streamId);
    if (entry === undefined) {
      this.cache.set(streamId, { revision, version: 0, workspaceId, dirty: true });
    } else if (revision > entry.revision) {
      entry.revision = revision;
      entry.workspaceId = workspaceId;
      entry.dirty = true;
    }
  }

  /**
   * Forgets revisions advanced in memory but not written: after a failed batch they would make
   * its redelivery look like a duplicate although its documents may not have been written.
   */
  discardUnwritten(): void {
    for (const [id, entry] of this.cache) if (entry.dirty) this.cache.delete(id);
  }

  /** Writes what advanced; never moves a stored revision backwards. */
  async flush(): Promise<void> {
    const dirty = [...this.cache].filter(([, e]) => e.dirty);
    if (dirty.length === 0) return;
    if (this.options.exclusive) {
      for (let i = 0; i < dirty.length; i += MAX_BATCH_SIZE) {
        await this.documents.bulkWrite(
          this.collection,
          dirty
            .slice(i, i + MAX_BATCH_SIZE)
            .map(([id, e]) => ({ type: 'upsert' as const, document: this.toDocument(id, e) })),
        );
      }
      for (const [, e] of dirty) e.dirty = false;
    } else if (dirty.length > 1) {
      // One commit where the store can; a conflicted write goes the one-by-one way.
      const outcomes = await this.documents.upsertMany(
        this.collection,
        dirty.map(([id, e]) => ({ document: this.toDocument(id, e), expectedVersion: e.version })),
      );
      for (let i = 0; i < dirty.length; i += 1) {
        const [id, entry] = dirty[i];
        const outcome = outcomes[i];
        if (outcome.ok) {
          entry.version = outcome.result.version;
          entry.dirty = false;
        } else if (outcome.error instanceof DocumentConflictError) await this.writeMonotonic(id, entry);
        else throw outcome.error;
      }
    } else {
      for (const [id, entry] of dirty) await this.writeMonotonic(id, entry);
    }
    this.evict();
  }

  private async writeMonotonic(id: string, entry: Entry): Promise<void> {
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt += 1) {
      try {
        const result = await this.documents.upsert(this.collection, this.toDocument(id, entry), {
          expectedVersion: entry.version,
        });
        entry.version = result.version;
        entry.dirty = false;
        return;
      } catch (error) {
        if (!(error instanceof DocumentConflictError)) throw error;
        const stored = await this.documents.get<AppliedStreamDocument>(this.collection, id);
        entry.version = stored?._version ?? 0;
        if (stored !== undefined && stored.revision >= entry.revision) {
          // Another instance got further: take its value, there is nothing to write.
          entry.revision = stored.revision;
          entry.dirty = false;
          return;
        }
      }
    }
    throw new ProjectionWriteConflictError(this.collection, id, MAX_WRITE_ATTEMPTS);
  }

  private remember(streamId: string, stored: StoredDocument<AppliedStreamDocument> | undefined): Entry {
    const entry: Entry = {
      revision: stored?.revision ?? -1,
      version: stored?._version ?? 0,
      workspaceId: stored?.workspaceId ?? '',
      dirty: false,
    };
    this.cache.set(streamId, entry);
    return entry;
  }

  private toDocument(id: string, entry: Entry): AppliedStreamDocument {
    return { _id: id, workspaceId: entry.workspaceId, category: categoryOf(id), revision: entry.revision };
  }

  private evict(): void {
    if (this.cache.size <= this.capacity) return;
    // An exclusive writer must remember every stream, or a forgotten one would read as -1.
    if (this.options.exclusive) return;
    for (const [id, entry] of this.cache) {
      if (this.cache.size <= this.capacity) break;
      if (!entry.dirty) this.cache.delete(id);
    }
  }
}
