import { asMongoError, isMongoUnavailable } from '@lomo/resilience';
import { causeOf, SearchIndexError } from '../search-index.errors';

/** Driver errors become SearchIndexError: unavailable (retriable) or failed; ours pass through. */
export function mapMongoSearchError(error: unknown, operation: string): unknown {
  if (error instanceof SearchIndexError) return error;
  const e = asMongoError(error);
  if (e === undefined) return error;
  return new SearchIndexError(
    isMongoUnavailable(error) ? 'SEARCH_UNAVAILABLE' : 'SEARCH_FAILED',
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
