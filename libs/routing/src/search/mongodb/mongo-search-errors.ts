import { causeOf, SearchIndexError } from '../search-index.errors';

// Classified by name and code, not instanceof, as libs/read-models/src/document-store/mongodb/mongo-errors.ts does.
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

/** Driver errors become SearchIndexError: unavailable (retriable) or failed; ours pass through. */
export function mapMongoSearchError(error: unknown, operation: string): unknown {
  if (error instanceof SearchIndexError) return error;
  if (typeof error !== 'object' || error === null) return error;
  const e = error as { name?: unknown; code?: unknown; hasErrorLabel?: (label: string) => boolean };
  if (typeof e.name !== 'string' || !e.name.startsWith('Mongo')) return error;
  const unavailable =
    NETWORK_ERRORS.has(e.name) ||
    (typeof e.code === 'number' && UNAVAILABLE_CODES.has(e.code)) ||
    e.hasErrorLabel?.('RetryableWriteError') === true;
  return new SearchIndexError(
    unavailable ? 'SEARCH_UNAVAILABLE' : 'SEARCH_FAILED',
    `MongoDB search index: ${operation} failed (${e.name})`,
    { operation, cause: causeOf(error) },
  );
}

export async function guard<T>(operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw mapMongoSearchError(error, operation);
  }
}
