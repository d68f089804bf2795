import { ValidationError } from '@lomo/contracts';
import type { EventFilter } from '../event-store.port';
import { storedTypeNames } from '../event-type-names';

/** A filter as a SQL condition; `sql` doubles as the statement-cache key. */
export interface FilterSql {
  sql: string;
  params: string[];
}

const MAX_FILTER_TERMS = 100;

/**
 * Prefixes become half-open ranges on stream_id (`>= prefix AND < prefix-successor`), which
 * compare bytes exactly, unlike LIKE (case-insensitive, wildcard characters). The column is
 * written `+stream_id` so SQLite keeps walking the position order instead of switching to the
 * stream index and sorting: tailing reads near the head stay cheap whatever the prefix.
 */
export function compileFilter(filter: EventFilter | undefined): FilterSql {
  const prefixes = unique(filter?.streamPrefixes, 'filter.streamPrefixes');
  const types = storedTypeNames(unique(filter?.eventTypes, 'filter.eventTypes'));
  const clauses: string[] = [];
  const params: string[] = [];
  // An empty prefix matches every stream, so it removes the prefix constraint altogether.
  if (prefixes.length > 0 && !prefixes.includes('')) {
    clauses.push(`(${prefixes.map(() => '(+stream_id >= ? AND +stream_id < ?)').join(' OR ')})`);
    for (const prefix of prefixes) params.push(prefix, prefixSuccessor(prefix));
  }
  if (types.length > 0) {
    clauses.push(`+type IN (${types.map(() => '?').join(', ')})`);
    params.push(...types);
  }
  return { sql: clauses.length === 0 ? '' : ` AND ${clauses.join(' AND ')}`, params };
}

/** The smallest string greater than every string that starts with `prefix`. */
export function prefixSuccessor(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

function unique(values: readonly string[] | undefined, path: string): string[] {
  if (values === undefined) return [];
  if (
    !Array.isArray(values) ||
    values.length > MAX_FILTER_TERMS ||
    values.some((v) => typeof v !== 'string' || v.length > 220)
  ) {
    throw new ValidationError(`Invalid ${path}`, [
      { path, message: `at most ${MAX_FILTER_TERMS} strings of at most 220 characters` },
    ]);
  }
  return [...new Set(values)];
}
