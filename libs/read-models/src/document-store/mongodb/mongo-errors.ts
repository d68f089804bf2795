import { DocumentStoreUnavailableError, UniqueConstraintError } from '../document-store.errors';
import { uniqueFieldsInMessage } from '../index-spec';
import { BODY } from './mongo-filter';

const NETWORK_ERRORS = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoOperationTimeoutError',
]);

// Server codes that mean "this node cannot serve right now" (shutdown, failover, timeouts).
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

interface MongoErrorShape {
  name: string;
  message: string;
  code?: unknown;
  keyPattern?: unknown;
  hasErrorLabel?: (label: string) => boolean;
}

/** By name and code, not `instanceof`, like the SQLite side: robust to several module copies. */
function asMongoError(error: unknown): MongoErrorShape | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name } = error as { name?: unknown };
  return typeof name === 'string' && name.startsWith('Mongo') ? (error as MongoErrorShape) : undefined;
}

export function isDuplicateKey(error: unknown): boolean {
  const code = asMongoError(error)?.code;
  return code === 11000 || code === 11001;
}

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

export function isUnavailable(error: unknown): boolean {
  const e = asMongoError(error);
  if (e === undefined) return false;
  return (
    NETWORK_ERRORS.has(e.name) ||
    (typeof e.code === 'number' && UNAVAILABLE_CODES.has(e.code)) ||
    e.hasErrorLabel?.('RetryableWriteError') === true
  );
}

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
