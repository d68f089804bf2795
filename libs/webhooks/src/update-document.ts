import { DocumentConflictError, type DocumentInput, type DocumentStore, type StoredDocument } from '@lomo/read-models';

const MAX_CONFLICTS = 8;

/**
 * Read-modify-write under compare-and-set: the service and the engine both write webhook and
 * dead-letter documents, and neither may overwrite the other's change. `change` returns the new
 * document, or undefined to leave it as is; it may throw to refuse. Undefined when absent.
 */
export async function updateDocument<T extends DocumentInput>(
  documents: DocumentStore,
  collection: string,
  id: string,
  change: (current: StoredDocument<T>) => T | undefined,
): Promise<StoredDocument<T> | undefined> {
  for (let conflicts = 0; ; conflicts += 1) {
    const current = await documents.get<T>(collection, id);
    if (current === undefined) return undefined;
    const next = change(current);
    if (next === undefined) return current;
    try {
      // A `_version` carried over from `current` is ignored by the store.
      const written = await documents.upsert(collection, next, { expectedVersion: current._version });
      return { ...next, _version: written.version };
    } catch (error) {
      if (!(error instanceof DocumentConflictError) || conflicts + 1 >= MAX_CONFLICTS) throw error;
    }
  }
}
