import { LomoError } from '@lomo/contracts';

/** A compare-and-set write found another version: re-read, re-apply, write again. */
export class DocumentConflictError extends LomoError {
  readonly code = 'DOCUMENT_CONFLICT';
  // Repeating the same write fails the same way; the caller has to re-read first.
  readonly retriable = false;
  constructor(
    readonly collection: string,
    readonly id: string,
    readonly expectedVersion: number,
    /** Best effort (read after the failed write); 0 = absent. */
    readonly actualVersion: number | undefined,
  ) {
    super(
      `${collection}/${id}: expected version ${expectedVersion}, found ${actualVersion === undefined ? 'another' : actualVersion}`,
      { collection, id, expectedVersion, actualVersion },
    );
  }
}

export class UniqueConstraintError extends LomoError {
  readonly code = 'DOCUMENT_UNIQUE_VIOLATION';
  readonly retriable = false;
  constructor(
    readonly collection: string,
    /** The index's fields when the server says which (FerretDB does not). */
    readonly fields: readonly string[] | undefined,
    cause?: unknown,
  ) {
    super(`${collection}: a unique index${fields ? ` on ${fields.join(', ')}` : ''} already holds this value`, {
      collection,
      fields,
      cause: cause instanceof Error ? cause.message : undefined,
    });
  }
}

export class DocumentStoreUnavailableError extends LomoError {
  readonly code = 'DOCUMENT_STORE_UNAVAILABLE';
  readonly retriable = true;
  constructor(message: string, cause?: unknown) {
    super(message, { cause: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause) });
  }
}

/** A filter, sort, cursor, collection name or index declaration the store cannot take. */
export class InvalidQueryError extends LomoError {
  readonly code = 'INVALID_QUERY';
  readonly retriable = false;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class InvalidDocumentError extends LomoError {
  readonly code = 'INVALID_DOCUMENT';
  readonly retriable = false;
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message, { path });
  }
}

export class PageSizeExceededError extends LomoError {
  readonly code = 'PAGE_SIZE_EXCEEDED';
  readonly retriable = false;
  constructor(
    readonly requested: number,
    readonly maximum: number,
  ) {
    super(`Page size ${requested} exceeds the maximum of ${maximum}`, { requested, maximum });
  }
}
