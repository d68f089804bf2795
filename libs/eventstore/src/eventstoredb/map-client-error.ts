import { ErrorType, NO_STREAM, convertToCommandError } from '@eventstore/db-client';
import {
  ConcurrencyError,
  LomoError,
  StoreUnavailableError,
  ValidationError,
  type ExpectedRevision,
} from '@lomo/contracts';
import { fromClientCurrentRevision } from './esdb-revision';
import { StoreAccessDeniedError, StoreFailureError, StreamDeletedError } from './eventstoredb-errors';

/** What the call was about, in the port's terms (the client only knows physical stream names). */
export interface ErrorContext {
  streamId?: string;
  expected?: ExpectedRevision;
}

const CLIENT_ERROR_TYPES = new Set<string>(Object.values(ErrorType));

/**
 * The server may be gone, moving leadership, or slow to commit: the call may or may not have
 * taken effect, and repeating it is safe (an append under an exact expectation is idempotent).
 */
const TRANSIENT = new Set<string>([
  ErrorType.UNAVAILABLE,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.TIMEOUT,
  ErrorType.NOT_LEADER,
  ErrorType.CANCELLED,
]);

/**
 * Turns anything the client throws into the port's typed errors; errors that are already ours
 * pass through. Client errors are recognised by their `type` rather than `instanceof`, so a second
 * copy of the client module (jest registries, bundling) does not defeat the mapping.
 */
export function mapClientError(error: unknown, context: ErrorContext = {}): unknown {
  if (error instanceof LomoError || !(error instanceof Error)) return error;
  // Raw gRPC errors (from streams the client did not wrap) get the client's own classification.
  const converted = convertToCommandError(error);
  const type = clientErrorType(converted);
  if (type === undefined) {
    // Cluster discovery gives up with a plain Error: the cluster is unreachable.
    return converted.message.startsWith('Failed to discover')
      ? new StoreUnavailableError(`EventStoreDB unavailable: ${converted.message}`, converted)
      : converted;
  }
  if (TRANSIENT.has(type)) {
    return new StoreUnavailableError(`EventStoreDB unavailable (${type}): ${converted.message}`, converted);
  }
  switch (type) {
    case ErrorType.WRONG_EXPECTED_VERSION: {
      const actual = actualRevisionOf(converted);
      if (context.streamId !== undefined && context.expected !== undefined && actual !== undefined) {
        return new ConcurrencyError(context.streamId, context.expected, actual);
      }
      break;
    }
    case ErrorType.ACCESS_DENIED:
      return new StoreAccessDeniedError(`EventStoreDB denied access: ${converted.message}`, type);
    case ErrorType.STREAM_DELETED:
      return new StreamDeletedError(context.streamId ?? stringField(converted, 'streamName') ?? '(unknown)');
    case ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED: {
      const limit = numberField(converted, 'maxAppendSize');
      return new ValidationError(`The append is larger than the server accepts (${String(limit)} bytes)`, [
        { path: 'events', message: `at most ${String(limit)} bytes in one append` },
      ]);
    }
  }
  return new StoreFailureError(`EventStoreDB refused the call (${type}): ${converted.message}`, type);
}

/** Reads of an absent stream fail with this; the port reads them as empty. */
export const isStreamNotFound = (error: unknown): boolean => clientErrorType(error) === ErrorType.STREAM_NOT_FOUND;

function clientErrorType(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const type = (error as { type?: unknown }).type;
  return typeof type === 'string' && CLIENT_ERROR_TYPES.has(type) ? type : undefined;
}

/** undefined when the server sent no usable actual revision (then no ConcurrencyError can be built). */
function actualRevisionOf(error: Error): number | 'no_stream' | undefined {
  const actual = (error as { actualVersion?: unknown }).actualVersion;
  if (actual === NO_STREAM) return 'no_stream';
  if (typeof actual !== 'bigint' || actual > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return fromClientCurrentRevision(actual);
}

function stringField(error: Error, field: string): string | undefined {
  const value = (error as unknown as Record<string, unknown>)[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function numberField(error: Error, field: string): number | undefined {
  const value = (error as unknown as Record<string, unknown>)[field];
  return typeof value === 'number' ? value : undefined;
}
