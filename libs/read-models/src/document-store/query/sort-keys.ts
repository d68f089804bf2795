import type { JsonScalar, SortDirection } from '../document-store.port';
import { InvalidQueryError } from '../document-store.errors';
import { assertFieldPath } from './names';
import { isScalar } from './parse-filter';

export interface SortKey {
  path: string;
  direction: SortDirection;
}

const MAX_SORT_KEYS = 4;

/** Validates a sort and closes it with `_id`, so the order is total and cursors are exact. */
export function normalizeSort(sort: unknown): SortKey[] {
  if (sort === undefined) return [{ path: '_id', direction: 1 }];
  if (!Array.isArray(sort) || sort.length > MAX_SORT_KEYS) {
    throw new InvalidQueryError(`A sort is an array of at most ${MAX_SORT_KEYS} [path, 1 | -1] pairs`);
  }
  const keys = sort.map((entry: unknown): SortKey => {
    if (!Array.isArray(entry) || entry.length !== 2 || (entry[1] !== 1 && entry[1] !== -1)) {
      throw new InvalidQueryError('A sort key is a [path, 1 | -1] pair', { entry });
    }
    assertFieldPath(entry[0]);
    return { path: entry[0], direction: entry[1] };
  });
  const paths = keys.map((k) => k.path);
  if (new Set(paths).size !== paths.length) throw new InvalidQueryError('A sort names a field twice', { paths });
  const idAt = paths.indexOf('_id');
  if (idAt >= 0 && idAt !== keys.length - 1) throw new InvalidQueryError('_id can only be the last sort key');
  return idAt >= 0 ? keys : [...keys, { path: '_id', direction: 1 }];
}

/** Ties the cursor to its sort: a cursor used with another sort would skip or repeat documents. */
export const sortSignature = (keys: readonly SortKey[]) => keys.map((k) => `${k.path}:${k.direction}`).join(',');

/** The value a document sorts by; missing counts as null, as both backends order it. */
export function sortValue(document: Readonly<Record<string, unknown>>, path: string): JsonScalar {
  let value: unknown = document;
  for (const segment of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[segment];
  }
  if (value === undefined) return null;
  if (!isScalar(value)) {
    throw new InvalidQueryError(`Sort field ${path} holds an array or object in document ${String(document._id)}`, {
      path,
      id: document._id,
    });
  }
  return value;
}
