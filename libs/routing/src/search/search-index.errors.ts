import { LomoError } from '@lomo/contracts';

export type SearchIndexErrorCode = 'SEARCH_INVALID_INPUT' | 'SEARCH_UNAVAILABLE' | 'SEARCH_FAILED';

/**
 * Every failure of a SearchIndex adapter: bad input (nothing was changed, repeating fails the
 * same way), the backing store unreachable right now (retriable), or anything else it reported.
 */
export class SearchIndexError extends LomoError {
  readonly retriable: boolean;
  constructor(
    readonly code: SearchIndexErrorCode,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
    this.retriable = code === 'SEARCH_UNAVAILABLE';
  }

  static invalid(message: string, details: Record<string, unknown> = {}): SearchIndexError {
    return new SearchIndexError('SEARCH_INVALID_INPUT', message, details);
  }
}

export const causeOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
