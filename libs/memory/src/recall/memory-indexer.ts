import type { BlobStore } from '@lomo/blobs';
import type { Clock } from '@lomo/contracts';
import type { MemoryState } from '@lomo/domain';
import type { EmbeddingProvider } from '@lomo/llm';
import type { SearchDocument, SearchIndex } from '@lomo/routing';
import type { MemoryIndexCatalog } from './memory-index-catalog';
import {
  entryFromSummary,
  entryFromVersion,
  personScope,
  sameText,
  summaryDocumentId,
  type MemoryIndexEntry,
  type PersonRef,
} from './memory-index-document';

export interface MemoryIndexerDeps {
  index: SearchIndex;
  embedder: EmbeddingProvider;
  blobs: BlobStore;
  catalog: MemoryIndexCatalog;
  /** Stamps a summary's validFrom when first indexed (the state does not keep when it was written). */
  clock: Clock;
  /** Texts embedded per call; 256 by default. */
  batchSize?: number;
}

export interface IndexSyncResult {
  upserted: string[];
  /** Document ids deleted from the index (a forgetting reports them as indexEntriesDeleted). */
  removed: string[];
}

/**
 * Keeps one person's keyword + vector documents (and the catalog's metadata) equal to their
 * memory state: one document per non-purged version with text (superseded ones too, for temporal
 * questions; recall filters them) and one per current episode summary. Text is read from the
 * BlobStore; a version whose blob is gone is treated as purged and leaves the index.
 */
export class MemoryIndexer {
  private readonly batchSize: number;

  constructor(private readonly deps: MemoryIndexerDeps) {
    this.batchSize = deps.batchSize ?? 256;
  }

  /** Brings the person's documents in line with `state` (after events were folded, or at start). */
  async syncPerson(person: PersonRef, state: MemoryState): Promise<IndexSyncResult> {
    const scope = personScope(person);
    const now = this.deps.clock.now().getTime();
    const known = this.deps.catalog.entries(scope);
    const wanted = new Map<string, MemoryIndexEntry>();
    for (const version of Object.values(state.versions)) {
      const entry = entryFromVersion(version, state);
      if (entry) wanted.set(entry.id, entry);
    }
    for (const summary of Object.values(state.summaries)) {
      const entry = entryFromSummary(summary, known.get(summaryDocumentId(summary.summaryId))?.validFrom ?? now);
      if (entry) wanted.set(entry.id, entry);
    }
    const stale = [...known.keys()].filter((id) => !wanted.has(id));
    const removed = await this.remove(person, stale);
    const { indexed, missing } = await this.upsert(person, [...wanted.values()]);
    return { upserted: indexed, removed: [...removed, ...missing] };
  }

  /**
   * `syncPerson` for the named documents only (`memory:{versionId}`, `summary:{summaryId}`): what
   * a change that names what it touched (a forgetting's apply) needs, without a pass over every
   * version of a person with 10 000 memories. The rest of the person's documents are left as
   * they are, so this keeps the index equal to the state only when it was before.
   */
  async syncDocuments(person: PersonRef, state: MemoryState, ids: Iterable<string>): Promise<IndexSyncResult> {
    const scope = personScope(person);
    const now = this.deps.clock.now().getTime();
    const wanted: MemoryIndexEntry[] = [];
    const stale: string[] = [];
    for (const id of new Set(ids)) {
      const version = id.startsWith('memory:') ? state.versions[id.slice('memory:'.length)] : undefined;
      const summary = id.startsWith('summary:') ? state.summaries[id.slice('summary:'.length)] : undefined;
      const entry =
        version !== undefined
          ? entryFromVersion(version, state)
          : summary !== undefined
            ? entryFromSummary(summary, this.deps.catalog.get(scope, id)?.validFrom ?? now)
            : null;
      if (entry) wanted.push(entry);
      else if (this.deps.catalog.get(scope, id) !== undefined) stale.push(id);
    }
    const removed = await this.remove(person, stale);
    const { indexed, missing } = await this.upsert(person, wanted);
    return { upserted: indexed, removed: [...removed, ...missing] };
  }

  /**
   * Indexes the given entries: a changed text is re-embedded, a metadata-only change (a version
   * superseded) only updates the catalog. Entries whose blob is missing (purged) are removed
   * instead: `missing` lists those that had been indexed.
   */
  async upsert(
    person: PersonRef,
    entries: readonly MemoryIndexEntry[],
  ): Promise<{ indexed: string[]; missing: string[] }> {
    const scope = personScope(person);
    const catalog = this.deps.catalog;
    const fresh: MemoryIndexEntry[] = [];
    for (const entry of entries) {
      const known = catalog.get(scope, entry.id);
      if (known && sameText(known, entry)) catalog.set(scope, entry);
      else fresh.push(entry);
    }
    const freshIds = new Set(fresh.map((e) => e.id));
    const indexed = entries.filter((e) => !freshIds.has(e.id)).map((e) => e.id);
    const missing: string[] = [];
    for (let i = 0; i < fresh.length; i += this.batchSize) {
      const batch = fresh.slice(i, i + this.batchSize);
      const texts = await Promise.all(batch.map((e) => this.deps.blobs.get(e.blobHash)));
      const present = batch.filter((_, j) => texts[j] !== undefined);
      const bodies = texts.filter((t): t is Buffer => t !== undefined).map((t) => t.toString('utf8'));
      const vectors = bodies.length > 0 ? await this.deps.embedder.embed({ texts: bodies }) : [];
      const documents: SearchDocument[] = present.map((e, j) => ({
        scope,
        id: e.id,
        text: bodies[j]!,
        vector: vectors[j],
      }));
      if (documents.length > 0) await this.deps.index.upsert(documents);
      present.forEach((e) => catalog.set(scope, e));
      indexed.push(...present.map((e) => e.id));
      const gone = batch.filter((_, j) => texts[j] === undefined).map((e) => e.id);
      missing.push(...(await this.remove(person, gone)));
    }
    return { indexed, missing };
  }

  /**
   * Deletes documents from the keyword and vector index and the catalog: what the forgetting
   * runner calls with `memory:{versionId}` / `summary:{summaryId}` ids. Returns the ids that were
   * indexed (for the report's indexEntriesDeleted); unknown ids are still removed from the index.
   */
  async remove(person: PersonRef, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const scope = personScope(person);
    await this.deps.index.remove(scope, ids);
    return ids.filter((id) => this.deps.catalog.delete(scope, id));
  }
}
