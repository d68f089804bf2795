import { InvalidQueryError } from '../document-store.errors';

const COLLECTION = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_DEPTH = 8;

/**
 * Collection names become SQLite table names and MongoDB collection names; one restrictive
 * alphabet keeps both safe to quote and identical across adapters.
 */
export function assertCollectionName(collection: unknown): asserts collection is string {
  if (typeof collection !== 'string' || !COLLECTION.test(collection)) {
    throw new InvalidQueryError(
      `Invalid collection name ${JSON.stringify(collection)} (letters, digits, _; at most 64)`,
      {
        collection,
      },
    );
  }
}

/**
 * Field paths are inlined into SQL (`json_extract(doc, '$.a.b')` must be a literal for SQLite to
 * match it against an expression index), so the alphabet is the injection guard.
 */
export function assertFieldPath(path: unknown): asserts path is string {
  if (typeof path !== 'string' || path === '_version') {
    throw new InvalidQueryError(`Invalid field path ${JSON.stringify(path)}`, { path });
  }
  const segments = path.split('.');
  if (segments.length > MAX_DEPTH || !segments.every((s) => SEGMENT.test(s))) {
    throw new InvalidQueryError(`Invalid field path ${JSON.stringify(path)} (dotted segments of letters, digits, _)`, {
      path,
    });
  }
  if (segments.length > 1 && segments[0] === '_id') {
    throw new InvalidQueryError(`_id is a string and has no nested fields: ${path}`, { path });
  }
}
