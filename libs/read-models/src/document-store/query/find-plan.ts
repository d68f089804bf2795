import { DEFAULT_PAGE_SIZE, type FindQuery } from '../document-store.port';
import { InvalidQueryError, PageSizeExceededError } from '../document-store.errors';
import { afterCursor, decodeCursor } from './cursor';
import { parseFilter, isPlainObject } from './parse-filter';
import { and, type Predicate } from './predicate';
import { normalizeSort, type SortKey } from './sort-keys';

export interface FindPlan {
  where: Predicate;
  sort: SortKey[];
  limit: number;
}

/** Everything both adapters need from a FindQuery, validated once: they only compile it. */
export function planFind(query: FindQuery | undefined, maxPageSize: number): FindPlan {
  if (query !== undefined && !isPlainObject(query as unknown))
    throw new InvalidQueryError('A query must be a plain object');
  const limit: unknown = query?.limit ?? DEFAULT_PAGE_SIZE;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new InvalidQueryError(`limit must be a positive integer, got ${String(limit)}`, { limit });
  }
  if (limit > maxPageSize) throw new PageSizeExceededError(limit, maxPageSize);
  const sort = normalizeSort(query?.sort);
  const filter = parseFilter(query?.filter);
  const where = query?.after === undefined ? filter : and(filter, afterCursor(sort, decodeCursor(query.after, sort)));
  return { where, sort, limit };
}
