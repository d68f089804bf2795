import type { SearchDocument, SearchOptions } from './search-index.port';
import { SearchIndexError } from './search-index.errors';

export const MAX_SEARCH_LIMIT = 1000;

/** What every adapter checks before touching its store, so bad input changes nothing anywhere. */
export function assertScope(scope: unknown): asserts scope is string {
  if (typeof scope !== 'string' || scope.length === 0)
    throw SearchIndexError.invalid('scope must be a non-empty string');
}

export function assertId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id.length === 0) throw SearchIndexError.invalid('id must be a non-empty string');
}

export function assertVector(vector: unknown, dimensions: number): asserts vector is Float32Array {
  if (!(vector instanceof Float32Array)) throw SearchIndexError.invalid('vector must be a Float32Array');
  if (vector.length !== dimensions) {
    throw SearchIndexError.invalid(`vector has ${vector.length} dimensions, the index has ${dimensions}`, {
      expected: dimensions,
      actual: vector.length,
    });
  }
  for (let i = 0; i < vector.length; i += 1) {
    if (!Number.isFinite(vector[i])) throw SearchIndexError.invalid(`vector[${i}] is not a finite number`);
  }
}

export function assertIds(ids: unknown): asserts ids is readonly string[] {
  if (!Array.isArray(ids)) throw SearchIndexError.invalid('ids must be an array');
  ids.forEach(assertId);
}

export function assertOptions(options: SearchOptions): void {
  const limit = options?.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw SearchIndexError.invalid(`limit must be an integer in 1..${MAX_SEARCH_LIMIT}`, { limit });
  }
}

export function assertDocuments(documents: readonly SearchDocument[], dimensions: number): void {
  if (!Array.isArray(documents)) throw SearchIndexError.invalid('documents must be an array');
  documents.forEach((d) => {
    assertScope(d?.scope);
    assertId(d.id);
    if (typeof d.text !== 'string') throw SearchIndexError.invalid('text must be a string', { id: d.id });
    if (d.vector !== undefined) assertVector(d.vector, dimensions);
  });
}

export function assertDimensions(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16_384) {
    throw SearchIndexError.invalid('dimensions must be an integer in 1..16384', { dimensions });
  }
}

/** A batch that names a document twice keeps the last one, as upserting them in order would. */
export function lastPerKey(documents: readonly SearchDocument[]): SearchDocument[] {
  const byKey = new Map<string, SearchDocument>();
  for (const d of documents) byKey.set(`${d.scope}\u0000${d.id}`, d);
  return [...byKey.values()];
}
