import type { MemoryIndexEntry } from './memory-index-document';

/**
 * The recall metadata of every indexed document, per person scope, in process memory: recall
 * filters the index's candidates here (scope, status, validity) without a read of the stream or
 * the read model, which keeps recall at 100 000 memories within milliseconds. It is derived
 * state: a process rebuilds it with MemoryIndexer.syncPerson from the memory state it folds.
 */
export class MemoryIndexCatalog {
  private readonly scopes = new Map<string, Map<string, MemoryIndexEntry>>();

  get(scope: string, id: string): MemoryIndexEntry | undefined {
    return this.scopes.get(scope)?.get(id);
  }

  entries(scope: string): ReadonlyMap<string, MemoryIndexEntry> {
    return this.scopes.get(scope) ?? new Map();
  }

  size(scope: string): number {
    return this.scopes.get(scope)?.size ?? 0;
  }

  set(scope: string, entry: MemoryIndexEntry): void {
    let entries = this.scopes.get(scope);
    if (!entries) this.scopes.set(scope, (entries = new Map()));
    entries.set(entry.id, entry);
  }

  delete(scope: string, id: string): boolean {
    const entries = this.scopes.get(scope);
    if (!entries?.delete(id)) return false;
    if (entries.size === 0) this.scopes.delete(scope);
    return true;
  }
}
