import { ValidationError } from '@lomo/contracts';
import type { EventFilter } from '../event-store.port';
import { storedTypeNames } from '../event-type-names';

/** Decides from the stream id and the stored type alone, so excluded events are never parsed. */
export type EventMatcher = (streamId: string, storedType: string) => boolean;

const MAX_FILTER_TERMS = 100;
const MAX_TERM_LENGTH = 220;

/** The same limits and semantics as the SQLite adapter: prefixes OR-ed, types OR-ed, both AND-ed. */
export function compileMatcher(filter: EventFilter | undefined): EventMatcher {
  const prefixes = terms(filter?.streamPrefixes, 'filter.streamPrefixes');
  // Stored events keep the type name they were written under; former names must match too.
  const types = new Set(storedTypeNames(terms(filter?.eventTypes, 'filter.eventTypes')));
  const anyStream = prefixes.length === 0 || prefixes.includes('');
  const anyType = types.size === 0;
  return (streamId, storedType) =>
    (anyStream || prefixes.some((p) => streamId.startsWith(p))) && (anyType || types.has(storedType));
}

function terms(values: readonly string[] | undefined, path: string): string[] {
  if (values === undefined) return [];
  if (
    !Array.isArray(values) ||
    values.length > MAX_FILTER_TERMS ||
    values.some((v) => typeof v !== 'string' || v.length > MAX_TERM_LENGTH)
  ) {
    throw new ValidationError(`Invalid ${path}`, [
      { path, message: `at most ${MAX_FILTER_TERMS} strings of at most ${MAX_TERM_LENGTH} characters` },
    ]);
  }
  return [...new Set(values)];
}
