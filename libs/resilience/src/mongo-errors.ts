/**
 * How a MongoDB driver error is told apart at an adapter's boundary, in one place for every
 * adapter on a MongoDB-wire server (document store, tool state, blobs, search index). By name and
 * code, not `instanceof`: robust to several copies of the driver module.
 */
export interface MongoErrorShape {
  name: string;
  message: string;
  code?: unknown;
  keyPattern?: unknown;
  hasErrorLabel?: (label: string) => boolean;
}

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

/** The error as a driver error, or undefined when it is not one. */
export function asMongoError(error: unknown): MongoErrorShape | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name } = error as { name?: unknown };
  return typeof name === 'string' && name.startsWith('Mongo') ? (error as MongoErrorShape) : undefined;
}

/** The server cannot be reached or cannot serve right now: worth a retry. */
export function isMongoUnavailable(error: unknown): boolean {
  const e = asMongoError(error);
  if (e === undefined) return false;
  return (
    NETWORK_ERRORS.has(e.name) ||
    (typeof e.code === 'number' && UNAVAILABLE_CODES.has(e.code)) ||
    e.hasErrorLabel?.('RetryableWriteError') === true
  );
}

/** A unique index refused the write (E11000 on MongoDB and FerretDB alike). */
export function isMongoDuplicateKey(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 11000 || code === 11001;
}
