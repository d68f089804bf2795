import type { Document, Filter, Sort } from 'mongodb';
import type { IndexPlan } from '../index-spec';
import type { Predicate } from '../query/predicate';
import type { SortKey } from '../query/sort-keys';

/**
 * Stored layout: `{ _id, _v: version, d: body }`. Keeping the body under one field lets a
 * replace-with-version-bump be a single `$set: { d }, $inc: { _v: 1 }` upsert; FerretDB has no
 * pipeline updates and a plain replacement cannot increment.
 */
export interface MongoRow {
  _id: string;
  _v: number;
  d: Record<string, unknown>;
}

/** Rows come back as driver `Document`s; this is the one place that trusts their shape. */
export function asRow(document: Document): MongoRow {
  const { _id, _v, d } = document;
  if (typeof _id !== 'string' || typeof _v !== 'number' || typeof d !== 'object' || d === null) {
    throw new Error(`Not a document-store row: ${JSON.stringify(document).slice(0, 200)}`);
  }
  return { _id, _v, d: d as Record<string, unknown> };
}

/** Our `_id`s are strings, not the driver's default ObjectId. */
export type StringIdDocument = Document & { _id: string };

export const BODY = 'd';
export const VERSION = '_v';

export const fieldPath = (path: string) => (path === '_id' ? '_id' : `${BODY}.${path}`);

const OPERATORS = { eq: '$eq', gt: '$gt', gte: '$gte', lt: '$lt', lte: '$lte' } as const;

export function compileFilter(predicate: Predicate): Filter<StringIdDocument> {
  switch (predicate.kind) {
    case 'compare':
      return { [fieldPath(predicate.path)]: { [OPERATORS[predicate.op]]: predicate.value } };
    case 'in':
      return { [fieldPath(predicate.path)]: { $in: [...predicate.values] } };
    case 'notNull':
      return { [fieldPath(predicate.path)]: { $ne: null } };
    case 'and':
      if (predicate.items.length === 0) return {};
      return predicate.items.length === 1
        ? compileFilter(predicate.items[0])
        : { $and: predicate.items.map(compileFilter) };
    case 'or':
      // `$or: []` is rejected by the server; an empty `$in` matches nothing everywhere.
      if (predicate.items.length === 0) return { _id: { $in: [] } };
      return predicate.items.length === 1
        ? compileFilter(predicate.items[0])
        : { $or: predicate.items.map(compileFilter) };
  }
}

export const compileSort = (keys: readonly SortKey[]): Sort =>
  keys.map((k): [string, 1 | -1] => [fieldPath(k.path), k.direction]);

/** Non-unique indexes end with `_id` (the sort tie-breaker), as on SQLite. */
export function indexKey(index: IndexPlan): Record<string, 1 | -1> {
  const key: Record<string, 1 | -1> = {};
  for (const f of index.fields) key[fieldPath(f.path)] = f.direction;
  if (!index.unique) key._id = 1;
  return key;
}
