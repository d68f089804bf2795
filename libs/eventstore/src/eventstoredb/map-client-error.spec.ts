import {
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  ErrorType,
  MaxAppendSizeExceededError,
  NotLeaderError,
  StreamDeletedError as ClientStreamDeletedError,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { ConcurrencyError, StoreUnavailableError, ValidationError } from '@lomo/contracts';
import { StoreAccessDeniedError, StoreFailureError, StreamDeletedError } from './eventstoredb-errors';
import { isStreamNotFound, mapClientError } from './map-client-error';

type GrpcServiceError = ConstructorParameters<typeof NotLeaderError>[0];

/**
 * The parts of a gRPC ServiceError the client reads (code, details, metadata.getMap()), with the
 * metadata the server sends; @grpc/grpc-js is the client's dependency, not the project's.
 */
function serviceError(code: number, details: string, metadata: Record<string, string> = {}): GrpcServiceError {
  const error = Object.assign(new Error(`${code} ${details}`), {
    code,
    details,
    metadata: { getMap: () => metadata },
  });
  return error as unknown as GrpcServiceError;
}

const GRPC_UNAVAILABLE = 14;
const GRPC_NOT_FOUND = 5;
const appendContext = { streamId: 'task-1', expected: 1 as const };

describe('mapClientError', () => {
  describe('WrongExpectedVersionError -> ConcurrencyError with our stream id, our expectation and the actual revision', () => {
    it.each<[string, ConstructorParameters<typeof WrongExpectedVersionError>[1], number | 'no_stream']>([
      ['a bigint current revision', { streamName: 'ns/task-1', expected: 1n, current: 3n }, 3],
      ['an absent stream', { streamName: 'ns/task-1', expected: 1n, current: 'no_stream' }, 'no_stream'],
      [
        "an older server's -1 for an absent stream",
        { streamName: 'ns/task-1', expected: 1n, current: -1n },
        'no_stream',
      ],
    ])('%s', (_name, versions, actual) => {
      const mapped = mapClientError(new WrongExpectedVersionError(undefined, versions), appendContext);
      expect(mapped).toBeInstanceOf(ConcurrencyError);
      expect(mapped).toMatchObject({
        code: 'CONCURRENCY_CONFLICT',
        retriable: false,
        streamId: 'task-1',
        expected: 1,
        actual,
      });
    });

    it('keeps the caller expectation in its own form (the client reports no_stream / stream_exists / any alike)', () => {
      const error = new WrongExpectedVersionError(undefined, {
        streamName: 's',
        expected: 'stream_exists',
        current: 'no_stream',
      });
      expect(mapClientError(error, { streamId: 'turn-1', expected: 'stream_exists' })).toMatchObject({
        expected: 'stream_exists',
        actual: 'no_stream',
      });
    });

    it('is built from the gRPC metadata the server sends when the client converts a raw error', () => {
      const raw = serviceError(9, 'wrong expected version', {
        exception: ErrorType.WRONG_EXPECTED_VERSION,
        'stream-name': 'task-1',
        'expected-version': '4',
        'actual-version': '9007199254740991',
      });
      expect(mapClientError(raw, { streamId: 'task-1', expected: 4 })).toMatchObject({
        code: 'CONCURRENCY_CONFLICT',
        actual: Number.MAX_SAFE_INTEGER,
      });
    });

    it('without the call context, or with an actual revision beyond 2^53, it is a non-retriable failure', () => {
      const plain = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 1n, current: 2n });
      expect(mapClientError(plain)).toBeInstanceOf(StoreFailureError);
      const huge = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 1n, current: 1n << 60n });
      expect(mapClientError(huge, appendContext)).toMatchObject({ code: 'STORE_FAILED', retriable: false });
    });
  });

  describe('transient failures -> StoreUnavailableError (retriable)', () => {
    it.each<[string, Error]>([
      ['UnavailableError', new UnavailableError()],
      ['DeadlineExceededError', new DeadlineExceededError()],
      ['TimeoutError (the server timed out committing: outcome unknown)', new TimeoutError()],
      ['CancelledError (the server cancelled a long request)', new CancelledError()],
      [
        'NotLeaderError (the client reconnects to the leader on the next call)',
        new NotLeaderError(
          serviceError(GRPC_NOT_FOUND, 'Leader info available', {
            exception: ErrorType.NOT_LEADER,
            'leader-endpoint-host': '10.0.0.2',
            'leader-endpoint-port': '2113',
          }),
        ),
      ],
      ['a raw gRPC UNAVAILABLE the client did not wrap', serviceError(GRPC_UNAVAILABLE, 'No connection established')],
      ['cluster discovery giving up', new Error('Failed to discover after 10 attempts.')],
    ])('%s', (_name, error) => {
      const mapped = mapClientError(error, appendContext);
      expect(mapped).toBeInstanceOf(StoreUnavailableError);
      expect(mapped).toMatchObject({ code: 'STORE_UNAVAILABLE', retriable: true });
    });
  });

  it('AccessDeniedError -> StoreAccessDeniedError, not retriable', () => {
    const mapped = mapClientError(new AccessDeniedError(), appendContext);
    expect(mapped).toBeInstanceOf(StoreAccessDeniedError);
    expect(mapped).toMatchObject({ code: 'STORE_ACCESS_DENIED', retriable: false });
  });

  it("StreamDeletedError -> our StreamDeletedError, naming the port's stream id", () => {
    const mapped = mapClientError(ClientStreamDeletedError.fromStreamName('run-1/task-1'), appendContext);
    expect(mapped).toBeInstanceOf(StreamDeletedError);
    expect(mapped).toMatchObject({ code: 'STREAM_DELETED', retriable: false, streamId: 'task-1' });
  });

  it('MaxAppendSizeExceededError -> ValidationError naming the limit (the input is too large)', () => {
    const mapped = mapClientError(MaxAppendSizeExceededError.fromMaxAppendSize(1_048_576), appendContext);
    expect(mapped).toBeInstanceOf(ValidationError);
    expect((mapped as ValidationError).issues).toEqual([
      { path: 'events', message: 'at most 1048576 bytes in one append' },
    ]);
  });

  it('anything else the client reports -> StoreFailureError with the client error type', () => {
    const mapped = mapClientError(new UnknownError(), appendContext);
    expect(mapped).toBeInstanceOf(StoreFailureError);
    expect(mapped).toMatchObject({ code: 'STORE_FAILED', retriable: false, details: { clientErrorType: 'unknown' } });
  });

  it('recognises client errors by type, so a second copy of the client module is still mapped', () => {
    const foreignCopy = Object.assign(new Error('14 UNAVAILABLE'), { type: ErrorType.UNAVAILABLE });
    expect(mapClientError(foreignCopy)).toBeInstanceOf(StoreUnavailableError);
  });

  it('passes our own errors and unrelated errors through unchanged', () => {
    const ours = new ConcurrencyError('task-1', 0, 1);
    const unrelated = new TypeError('bug');
    expect(mapClientError(ours)).toBe(ours);
    expect(mapClientError(unrelated)).toBe(unrelated);
    expect(mapClientError('not an error')).toBe('not an error');
  });

  it('StreamNotFoundError is recognised (reads of an absent stream return [])', () => {
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 'task-1'))).toBe(true);
    expect(isStreamNotFound(new UnavailableError())).toBe(false);
    expect(isStreamNotFound(new Error('stream not found'))).toBe(false);
  });
});
