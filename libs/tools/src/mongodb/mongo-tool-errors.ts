import { LomoError } from '@lomo/contracts';

/** Tool state on MongoDB cannot be reached right now (network, failover, shutdown). */
export class ToolStoreUnavailableError extends LomoError {
  readonly code = 'TOOL_STORE_UNAVAILABLE';
  readonly retriable = true;
  constructor(message: string, cause?: unknown) {
    super(message, { cause: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause) });
  }
}

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
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

const shape = (error: unknown) =>
  typeof error === 'object' && error !== null ? (error as { name?: unknown; code?: unknown }) : {};

export const isDuplicateKey = (error: unknown): boolean => {
  const { code } = shape(error);
  return code === 11000 || code === 11001;
};

/** Runs one store operation, turning the driver's unavailability into our retriable error. */
export async function guard<T>(store: string, operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const { name, code } = shape(error);
    if (
      typeof name === 'string' &&
      (NETWORK_ERRORS.has(name) || (typeof code === 'number' && UNAVAILABLE_CODES.has(code)))
    )
      throw new ToolStoreUnavailableError(`${store} unavailable during ${operation} (${name})`, error);
    throw error;
  }
}

/**
 * Inserts `make(n)` with the smallest free `_id` n above the largest taken one: a unique insert is
 * atomic on MongoDB and FerretDB alike, where a read-modify-write ($inc included) is not on
 * FerretDB 1.24 (libs/read-models/src/document-store/mongodb/server-profile.ts).
 */
export async function insertNext(
  next: () => Promise<number>,
  insert: (n: number) => Promise<unknown>,
): Promise<number> {
  for (let n = await next(); ; n++) {
    try {
      await insert(n);
      return n;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
}
