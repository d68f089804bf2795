import { isLomoError, type LomoError } from '@lomo/contracts';
import { KafkaJSError, KafkaJSNumberOfRetriesExceeded } from 'kafkajs';
import { BusStorageError, BusUnavailableError } from '../errors';

/** The protocol error name kafkajs puts on `type` (e.g. REBALANCE_IN_PROGRESS). */
export function kafkaErrorType(error: unknown): string | undefined {
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
}

/** The innermost cause: KafkaJSNumberOfRetriesExceeded wraps the error of the last try. */
export function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 10; depth += 1) {
    const cause = typeof current === 'object' && current !== null ? (current as { cause?: unknown }).cause : undefined;
    if (cause === undefined || cause === null) return current;
    current = cause;
  }
  return current;
}

/**
 * The group moved on without this instance's current generation: its partitions are being
 * revoked (REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, NOT_COORDINATOR as kafkajs' isRebalancing)
 * or it was evicted (UNKNOWN_MEMBER_ID). kafkajs rejoins when such an error leaves eachBatch.
 */
export function isRevocation(error: unknown): boolean {
  const type = kafkaErrorType(error);
  return (
    type === 'REBALANCE_IN_PROGRESS' ||
    type === 'ILLEGAL_GENERATION' ||
    type === 'NOT_COORDINATOR_FOR_GROUP' ||
    type === 'UNKNOWN_MEMBER_ID'
  );
}

/**
 * A commit worth repeating: the coordinator is moving or loading (after a broker restart) or the
 * connection hiccuped, while this instance may well still be a member of its generation.
 */
export function isCommitRetriable(error: unknown): boolean {
  const type = kafkaErrorType(rootCause(error));
  if (
    type === 'NOT_COORDINATOR_FOR_GROUP' ||
    type === 'COORDINATOR_LOAD_IN_PROGRESS' ||
    type === 'COORDINATOR_NOT_AVAILABLE'
  )
    return true;
  return !isRevocation(error) && translateKafkaError(error, 'commit').retriable;
}

export function isTopicMissing(error: unknown): boolean {
  return kafkaErrorType(rootCause(error)) === 'UNKNOWN_TOPIC_OR_PARTITION';
}

/**
 * Our typed errors at the port boundary. Whatever kafkajs would retry (connection trouble, a
 * timeout, a leader moving, retries exhausted on such a cause) is BusUnavailableError; a refusal
 * that a retry will not change (message too large, bad config) is BusStorageError. LomoErrors
 * pass through.
 */
export function translateKafkaError(error: unknown, operation: string): LomoError {
  if (isLomoError(error)) return error;
  if (error instanceof KafkaJSError) {
    const cause = rootCause(error);
    const type = kafkaErrorType(cause) ?? (cause instanceof Error ? cause.name : 'unknown');
    const retriable =
      error instanceof KafkaJSNumberOfRetriesExceeded ||
      error.retriable ||
      (cause instanceof KafkaJSError && cause.retriable) ||
      isConnectionFailure(cause);
    const text = `Kafka ${operation} failed: ${type}: ${cause instanceof Error ? cause.message : String(cause)}`;
    return retriable ? new BusUnavailableError(text, cause) : new BusStorageError(text, cause);
  }
  if (error instanceof Error) return new BusUnavailableError(`Kafka ${operation} failed: ${error.message}`, error);
  return new BusUnavailableError(`Kafka ${operation} failed`, error);
}

const connectionFailures = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSBrokerNotFound',
  'KafkaJSTimeout',
  'KafkaJSLockTimeout',
]);

function isConnectionFailure(error: unknown): boolean {
  return error instanceof Error && connectionFailures.has(error.name);
}
