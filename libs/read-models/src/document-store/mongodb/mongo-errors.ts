import { asMongoError, isMongoDuplicateKey, isMongoUnavailable, type MongoErrorShape } from '@lomo/resilience';
import { DocumentStoreUnavailableError, UniqueConstraintError } from '../document-store.errors';
import { uniqueFieldsInMessage } from '../index-spec';
import { BODY } from './mongo-filter';

export const isDuplicateKey = isMongoDuplicateKey;

// FerretDB 1.24 reports a unique index violated by an update of an existing document, or by
// creating a unique index over duplicates, as InternalError (1) quoting SQLite's message.
const isSqliteUniqueFailure = (error: MongoErrorShape) =>
  error.code === 1 && error.message.includes('UNIQUE constraint failed');

/**
 * MongoDB names the index's key pattern; FerretDB's SQLite message names the index, whose name
 * we chose; its E11000 says neither (then `undefined`).
 */
function duplicateFields(error: MongoErrorShape): string[] | undefined {
  const pattern = error.keyPattern;
  if (typeof pattern !== 'object' || pattern === null) return uniqueFieldsInMessage(error.message);
  return Object.keys(pattern).map((k) => (k.startsWith(`${BODY}.`) ? k.slice(BODY.length + 1) : k));
}

export function isIdDuplicate(error: unknown): boolean | undefined {
  const e = asMongoError(error);
  if (e === undefined || !isDuplicateKey(error)) return false;
  const fields = duplicateFields(e);
  return fields === undefined ? undefined : fields.length === 1 && fields[0] === '_id';
}

export const isUnavailable = isMongoUnavailable;

/** Turns driver errors into the port's typed errors; anything else is passed through as is. */
export function mapMongoError(error: unknown, collection: string): unknown {
  const e = asMongoError(error);
  if (e === undefined) return error;
  if (isDuplicateKey(error) || isSqliteUniqueFailure(e)) {
    return new UniqueConstraintError(collection, duplicateFields(e), error);
  }
  if (isUnavailable(error)) {
    return new DocumentStoreUnavailableError(`MongoDB document store unavailable (${e.name})`, error);
  }
  return error;
}
