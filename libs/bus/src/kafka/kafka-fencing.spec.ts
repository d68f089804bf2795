import { KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { isProducerFenced } from './kafka-fencing';

// The shapes kafkajs 2.2 builds from a broker error code (src/protocol/error.js).
// kafkajs' retrier wraps a bailed error as `new KafkaJSNonRetriableError(e, { cause })`; its
// typings only declare the first parameter.
const NonRetriable = KafkaJSNonRetriableError as unknown as new (e: Error, options: { cause: unknown }) => Error;

const protocolError = (type: string, code: number, message: string) =>
  new KafkaJSProtocolError({ type, code, retriable: false, message } as unknown as Error);

describe('isProducerFenced', () => {
  it('recognizes INVALID_PRODUCER_EPOCH, bare or wrapped by exhausted retries or a non-retriable error', () => {
    const epoch = protocolError('INVALID_PRODUCER_EPOCH', 47, 'Producer attempted an operation with an old epoch');
    expect(isProducerFenced(epoch)).toBe(true);
    expect(isProducerFenced(new KafkaJSNumberOfRetriesExceeded(epoch, { retryCount: 3, retryTime: 10 }))).toBe(true);
    expect(isProducerFenced(new NonRetriable(epoch, { cause: epoch }))).toBe(true);
  });

  it('recognizes PRODUCER_FENCED, which kafkajs only knows as an unknown error code 90', () => {
    expect(isProducerFenced(protocolError('KAFKAJS_UNKNOWN_ERROR_CODE', -99, 'Unknown error code 90'))).toBe(true);
    expect(isProducerFenced(protocolError('KAFKAJS_UNKNOWN_ERROR_CODE', -99, 'Unknown error code 91'))).toBe(false);
  });

  it('does not take other transaction errors for a fence', () => {
    expect(isProducerFenced(protocolError('CONCURRENT_TRANSACTIONS', 51, 'busy'))).toBe(false);
    expect(isProducerFenced(protocolError('INVALID_PRODUCER_ID_MAPPING', 49, 'unknown id'))).toBe(false);
    expect(isProducerFenced(new KafkaJSNonRetriableError('Transaction state exception'))).toBe(false);
    expect(isProducerFenced(new Error('INVALID_PRODUCER_EPOCH'))).toBe(false);
  });
});
