import type { JsonScalar } from '../document-store.port';

/**
 * The adapter-neutral form of a filter (and of a cursor's "after" condition), compiled to SQL by
 * the SQLite adapter and to a query document by the MongoDB adapter. Semantics shared by both:
 * `eq null` matches a missing field; ranges match only values of the bound's type (booleans occur
 * only in cursor conditions).
 */
export type ComparisonOperator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';

export type Predicate =
  | { kind: 'compare'; path: string; op: ComparisonOperator; value: JsonScalar }
  | { kind: 'in'; path: string; values: readonly JsonScalar[] }
  /** Present and not null. */
  | { kind: 'notNull'; path: string }
  /** Empty = always true. */
  | { kind: 'and'; items: readonly Predicate[] }
  /** Empty = always false. */
  | { kind: 'or'; items: readonly Predicate[] };

export const ALWAYS: Predicate = { kind: 'and', items: [] };
export const NEVER: Predicate = { kind: 'or', items: [] };

export const isAlways = (p: Predicate) => p.kind === 'and' && p.items.length === 0;
export const isNever = (p: Predicate) => p.kind === 'or' && p.items.length === 0;

/** Flattens trivially, so compiled queries stay readable (and index-friendly for SQLite). */
export function and(...items: Predicate[]): Predicate {
  if (items.some(isNever)) return NEVER;
  const kept = items.flatMap((p) => (p.kind === 'and' ? p.items : [p]));
  return kept.length === 1 ? kept[0] : { kind: 'and', items: kept };
}

export function or(...items: Predicate[]): Predicate {
  if (items.some(isAlways)) return ALWAYS;
  const kept = items.flatMap((p) => (p.kind === 'or' ? p.items : [p]));
  return kept.length === 1 ? kept[0] : { kind: 'or', items: kept };
}
