import { z } from 'zod';
import type { JsonScalar } from '../document-store.port';
import { InvalidQueryError } from '../document-store.errors';
import { and, NEVER, or, type Predicate } from './predicate';
import { sortSignature, sortValue, type SortKey } from './sort-keys';

const CURSOR_FORMAT = 1;
const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const cursorSchema = z.object({ f: z.literal(CURSOR_FORMAT), s: z.string(), k: z.array(scalar) });

/** Opaque to callers: the sort key values of the last document, its `_id` last. */
export function encodeCursor(keys: readonly SortKey[], document: Readonly<Record<string, unknown>>): string {
  const values = keys.map((k) => sortValue(document, k.path));
  return Buffer.from(JSON.stringify({ f: CURSOR_FORMAT, s: sortSignature(keys), k: values })).toString('base64url');
}

export function decodeCursor(cursor: unknown, keys: readonly SortKey[]): JsonScalar[] {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 4_096) {
    throw new InvalidQueryError('Malformed cursor');
  }
  let parsed: z.infer<typeof cursorSchema>;
  try {
    parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new InvalidQueryError('Malformed cursor');
  }
  if (parsed.s !== sortSignature(keys) || parsed.k.length !== keys.length) {
    throw new InvalidQueryError('The cursor belongs to a query with another sort', { cursorSort: parsed.s });
  }
  if (typeof parsed.k[parsed.k.length - 1] !== 'string') throw new InvalidQueryError('Malformed cursor');
  return parsed.k;
}

const equalTo = (path: string, value: JsonScalar): Predicate => ({ kind: 'compare', path, op: 'eq', value });

/** Strictly after `value` in this key's order, where null (and missing) is the smallest value. */
function afterOnKey(key: SortKey, value: JsonScalar): Predicate {
  if (key.direction === 1) {
    return value === null ? { kind: 'notNull', path: key.path } : { kind: 'compare', path: key.path, op: 'gt', value };
  }
  return value === null ? NEVER : or({ kind: 'compare', path: key.path, op: 'lt', value }, equalTo(key.path, null));
}

/**
 * Keyset condition "sorts after the cursor": OR over i of (keys before i equal AND key i after).
 * A redundant bound on the first key is added in front so SQLite can seek in the index instead
 * of walking it from the start on every page.
 */
export function afterCursor(keys: readonly SortKey[], values: readonly JsonScalar[]): Predicate {
  const branches = keys.map((key, i) =>
    and(...keys.slice(0, i).map((k, j) => equalTo(k.path, values[j])), afterOnKey(key, values[i])),
  );
  const [first] = keys;
  const firstValue = values[0];
  let seek: Predicate | undefined;
  if (first.direction === 1 && firstValue !== null) {
    seek = { kind: 'compare', path: first.path, op: 'gte', value: firstValue };
  } else if (first.direction === -1 && firstValue === null) {
    seek = equalTo(first.path, null);
  }
  const after = or(...branches);
  return seek && keys.length > 1 ? and(seek, after) : after;
}
