import { LomoError } from '@lomo/contracts';
import { asMongoError, isMongoDuplicateKey, isMongoUnavailable } from '@lomo/resilience';

/** Tool state on MongoDB cannot be reached right now (network, failover, shutdown). */
export class ToolStoreUnavailableError extends LomoError {
  readonly code = 'TOOL_STORE_UNAVAILABLE';
  readonly retriable = true;
  constructor(message: string, cause?: unknown) {
    super(message, { cause: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause) });
  }
}

export const isDuplicateKey = isMongoDuplicateKey;

/** Runs one store operation, turning the driver's unavailability into our retriable error. */
export async function guard<T>(store: string, operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isMongoUnavailable(error))
      throw new ToolStoreUnavailableError(
        `${store} unavailable during ${operation} (${asMongoError(error)!.name})`,
        error,
      );
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
