import { LomoError } from '@lomo/contracts';

/** The store cannot be reached right now (network, failover, shutdown): try again later. */
export class BlobStoreUnavailableError extends LomoError {
  readonly code = 'BLOB_STORE_UNAVAILABLE';
  readonly retriable = true;
  constructor(message: string, cause?: unknown) {
    super(message, { cause: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause) });
  }
}

/** What is stored at an address does not hash to it: never hand such bytes out. */
export class BlobCorruptedError extends LomoError {
  readonly code = 'BLOB_CORRUPTED';
  readonly retriable = false;
  constructor(
    readonly hash: string,
    /** undefined when the content could not even be read back whole (missing or resized chunks). */
    readonly actualHash: string | undefined,
  ) {
    super(
      `blob ${hash} is corrupted: ${actualHash === undefined ? 'its content cannot be read back whole' : `its content hashes to ${actualHash}`}`,
      { hash, actualHash },
    );
  }
}
