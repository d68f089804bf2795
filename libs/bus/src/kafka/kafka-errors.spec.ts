import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  KafkaJSRequestTimeoutError,
} from 'kafkajs';
import { UnknownTopicError } from '../errors';
import { isCommitRetriable, isRevocation, translateKafkaError } from './kafka-errors';

// kafkajs builds protocol errors from the broker's error entries; these are its own shapes.
const protocolError = (type: string, retriable: boolean) =>
  new KafkaJSProtocolError({ type, code: 0, retriable, message: `broker says ${type}` } as unknown as Error);

describe('kafkajs errors at the bus boundary', () => {
  it('connection trouble and timeouts become the retriable BUS_UNAVAILABLE', () => {
    for (const error of [
      new KafkaJSConnectionError('connect ECONNREFUSED 127.0.0.1:9092'),
      new KafkaJSRequestTimeoutError('Request Produce timed out'),
    ]) {
      expect(translateKafkaError(error, 'publish')).toMatchObject({ code: 'BUS_UNAVAILABLE', retriable: true });
    }
  });

  it('retries exhausted count as unavailable whatever the last cause, since the write may have happened', () => {
    const exhausted = new KafkaJSNumberOfRetriesExceeded(protocolError('NOT_LEADER_FOR_PARTITION', true), {
      retryCount: 8,
      retryTime: 5000,
    });
    const translated = translateKafkaError(exhausted, 'publish to t');
    expect(translated).toMatchObject({ code: 'BUS_UNAVAILABLE', retriable: true });
    expect(translated.message).toContain('NOT_LEADER_FOR_PARTITION');
  });

  it('a refusal a retry will not change becomes the non-retriable BUS_STORAGE_FAILED', () => {
    expect(translateKafkaError(protocolError('MESSAGE_TOO_LARGE', false), 'publish')).toMatchObject({
      code: 'BUS_STORAGE_FAILED',
      retriable: false,
    });
    expect(translateKafkaError(new KafkaJSNonRetriableError('Invalid topics array'), 'create topic')).toMatchObject({
      code: 'BUS_STORAGE_FAILED',
      retriable: false,
    });
  });

  it('our own typed errors pass through unchanged', () => {
    const unknown = new UnknownTopicError('t');
    expect(translateKafkaError(unknown, 'publish')).toBe(unknown);
  });

  it('tells a revocation (rejoin and redeliver) from a coordinator that is only moving (commit again)', () => {
    expect(isRevocation(protocolError('REBALANCE_IN_PROGRESS', false))).toBe(true);
    expect(isRevocation(protocolError('UNKNOWN_MEMBER_ID', false))).toBe(true);
    expect(isRevocation(protocolError('NOT_LEADER_FOR_PARTITION', true))).toBe(false);
    expect(isCommitRetriable(protocolError('REBALANCE_IN_PROGRESS', false))).toBe(false);
    expect(isCommitRetriable(protocolError('ILLEGAL_GENERATION', false))).toBe(false);
    expect(isCommitRetriable(protocolError('NOT_COORDINATOR_FOR_GROUP', true))).toBe(true);
    expect(isCommitRetriable(protocolError('COORDINATOR_LOAD_IN_PROGRESS', true))).toBe(true);
    expect(isCommitRetriable(new KafkaJSConnectionError('Connection closed'))).toBe(true);
  });
});
