import { LomoError } from '@lomo/contracts';

/**
 * Failures EventStoreDB can report that the shared error set has no type for. Each keeps the
 * client's error type in its details so logs show what the server said.
 */

/** The credentials may not do this (ACL or authentication). Retrying the same call fails again. */
export class StoreAccessDeniedError extends LomoError {
  readonly code = 'STORE_ACCESS_DENIED';
  readonly retriable = false;
  constructor(message: string, clientErrorType: string) {
    super(message, { clientErrorType });
  }
}

/** The stream was deleted (tombstoned) on the server; it can never be written or read again. */
export class StreamDeletedError extends LomoError {
  readonly code = 'STREAM_DELETED';
  readonly retriable = false;
  constructor(readonly streamId: string) {
    super(`Stream ${streamId} was deleted in EventStoreDB`, { streamId });
  }
}

/** Anything else the server or the client refused; not known to be transient, so not retriable. */
export class StoreFailureError extends LomoError {
  readonly code = 'STORE_FAILED';
  readonly retriable = false;
  constructor(message: string, clientErrorType: string) {
    super(message, { clientErrorType });
  }
}
