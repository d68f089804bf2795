import { kafkaErrorType } from './kafka-errors';

/**
 * Whether Kafka refused this producer because a newer one initialized the same transactional id
 * (or the coordinator bumped the epoch when it timed a transaction out). kafkajs 2.2 reports it
 * as INVALID_PRODUCER_EPOCH (error 47, what Kafka 4 answers kafkajs' old request versions);
 * PRODUCER_FENCED (error 90, newer versions) is unknown to kafkajs and arrives as
 * KAFKAJS_UNKNOWN_ERROR_CODE "Unknown error code 90". Either may be wrapped (retries exhausted,
 * KafkaJSNonRetriableError), so the whole cause chain is searched.
 */
export function isProducerFenced(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth += 1) {
    const type = kafkaErrorType(current);
    if (type === 'INVALID_PRODUCER_EPOCH' || type === 'PRODUCER_FENCED') return true;
    const message = (current as { message?: unknown }).message;
    if (type === 'KAFKAJS_UNKNOWN_ERROR_CODE' && typeof message === 'string' && /\b90\b/.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
