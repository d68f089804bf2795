/**
 * Every error that crosses a port carries a stable string `code` (clients and logs match on it,
 * never on the message) and whether retrying the same call can succeed.
 */
export abstract class LomoError extends Error {
  abstract readonly code: string;
  abstract readonly retriable: boolean;
  readonly details: Readonly<Record<string, unknown>>;

  protected constructor(message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

export class ValidationError extends LomoError {
  readonly code = 'VALIDATION_FAILED';
  readonly retriable = false;
  constructor(
    message: string,
    readonly issues: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super(message, { issues });
  }
}

export class UnknownEventTypeError extends LomoError {
  readonly code = 'UNKNOWN_EVENT_TYPE';
  readonly retriable = false;
  constructor(readonly eventType: string) {
    super(`Unknown event type "${eventType}"`, { eventType });
  }
}

export class InvalidEventError extends LomoError {
  readonly code = 'INVALID_EVENT';
  readonly retriable = false;
  constructor(
    readonly eventType: string,
    readonly issues: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super(
      `Event ${eventType} does not match its contract: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      {
        eventType,
        issues,
      },
    );
  }
}

export class WrongStreamCategoryError extends LomoError {
  readonly code = 'WRONG_STREAM_CATEGORY';
  readonly retriable = false;
  constructor(
    readonly eventType: string,
    readonly streamId: string,
    readonly expectedCategory: string,
  ) {
    super(`Event ${eventType} belongs to "${expectedCategory}-" streams, not to ${streamId}`, {
      eventType,
      streamId,
      expectedCategory,
    });
  }
}

export class InvalidStreamIdError extends LomoError {
  readonly code = 'INVALID_STREAM_ID';
  readonly retriable = false;
  constructor(readonly streamId: string) {
    super(`"${streamId}" is not a valid stream id (<category>-<id>)`, { streamId });
  }
}

export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export class ConcurrencyError extends LomoError {
  readonly code = 'CONCURRENCY_CONFLICT';
  // The caller must re-read and decide again; blindly repeating the same append fails again.
  readonly retriable = false;
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's current last revision, or -1 / 'no_stream' when it does not exist. */
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`, {
      streamId,
      expected,
      actual,
    });
  }
}

export class StoreUnavailableError extends LomoError {
  readonly code = 'STORE_UNAVAILABLE';
  readonly retriable = true;
  constructor(message: string, cause?: unknown) {
    super(message, { cause: cause instanceof Error ? cause.message : String(cause) });
  }
}

export class ConfigError extends LomoError {
  readonly code = 'CONFIG_INVALID';
  readonly retriable = false;
  constructor(
    message: string,
    readonly variables: ReadonlyArray<{ variable: string; message: string }>,
  ) {
    super(message, { variables });
  }
}

export const isLomoError = (e: unknown): e is LomoError => e instanceof LomoError;

export function zodIssues(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }) {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
}
