import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import {
  nothingWasSent,
  translateDownloadError,
  translateReadError,
  translateSubmitError,
} from './openai-generation-errors';

const noDeadline = { timedOut: false, timeoutMs: 1000 };
const status = (code: number, headers: Record<string, string> = {}) =>
  APIError.generate(code, { error: { message: 'no', type: 'x', code: null } }, undefined, new Headers(headers));
const connection = (cause: unknown) => new APIConnectionError({ message: 'Connection error.', cause: cause as Error });
const withCode = (code: string) =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });

describe('translateSubmitError: only proof that nothing was created is anything but outcome unknown', () => {
  it.each([
    ['429', status(429, { 'retry-after': '3' }), 'GENERATION_RATE_LIMITED'],
    ['400', status(400), 'GENERATION_REJECTED'],
    ['422', status(422), 'GENERATION_REJECTED'],
    ['401', status(401), 'GENERATION_AUTH_FAILED'],
    ['403', status(403), 'GENERATION_AUTH_FAILED'],
    ['500', status(500), 'GENERATION_OUTCOME_UNKNOWN'],
    ['503', status(503), 'GENERATION_OUTCOME_UNKNOWN'],
    ['an SDK timeout', new APIConnectionTimeoutError(), 'GENERATION_OUTCOME_UNKNOWN'],
    ['our deadline (SDK abort)', new APIUserAbortError(), 'GENERATION_OUTCOME_UNKNOWN'],
    ['a refused connection', connection(withCode('ECONNREFUSED')), 'GENERATION_UNAVAILABLE'],
    ['a DNS failure', connection(withCode('ENOTFOUND')), 'GENERATION_UNAVAILABLE'],
    ['a reset connection', connection(withCode('ECONNRESET')), 'GENERATION_OUTCOME_UNKNOWN'],
    ['a closed socket', connection(withCode('UND_ERR_SOCKET')), 'GENERATION_OUTCOME_UNKNOWN'],
    ['a connection error without a cause', connection(undefined), 'GENERATION_OUTCOME_UNKNOWN'],
    ['an unreadable 2xx', new SyntaxError('Unexpected token'), 'GENERATION_OUTCOME_UNKNOWN'],
  ])('%s → %s', (_label, error, code) => {
    expect(translateSubmitError(error, noDeadline, 'test')).toMatchObject({ code });
  });

  it('reads retry-after onto the rate-limited error', () => {
    expect(translateSubmitError(status(429, { 'retry-after': '3' }), noDeadline, 't')).toMatchObject({
      retryAfterMs: 3000,
      retriable: true,
    });
  });

  it('is outcome unknown when our deadline fired, whatever the SDK threw', () => {
    expect(translateSubmitError(status(400), { timedOut: true, timeoutMs: 5 }, 't')).toMatchObject({
      code: 'GENERATION_OUTCOME_UNKNOWN',
    });
  });

  it('counts a refusal as nothing-sent only when every member of the cause chain says so', () => {
    const refusedBoth = connection(
      Object.assign(new TypeError('fetch failed'), {
        cause: new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'x'),
      }),
    );
    expect(nothingWasSent(refusedBoth)).toBe(true);
    expect(nothingWasSent(connection(new Error('no code')))).toBe(false);
  });
});

describe('translateReadError: a lost answer to a read is retriable, never outcome unknown', () => {
  it.each([
    ['404', status(404), 'UPSTREAM_JOB_NOT_FOUND'],
    ['500', status(500), 'GENERATION_UNAVAILABLE'],
    ['timeout', new APIConnectionTimeoutError(), 'GENERATION_UNAVAILABLE'],
    ['reset', connection(withCode('ECONNRESET')), 'GENERATION_UNAVAILABLE'],
    ['429', status(429), 'GENERATION_RATE_LIMITED'],
    ['401', status(401), 'GENERATION_AUTH_FAILED'],
    ['400', status(400), 'GENERATION_REJECTED'],
  ])('%s → %s', (_label, error, code) => {
    expect(translateReadError(error, noDeadline, 'poll', 'video_1')).toMatchObject({ code });
  });
});

describe('translateDownloadError', () => {
  it.each([
    ['503', status(503), true],
    ['429', status(429), true],
    ['timeout', new APIConnectionTimeoutError(), true],
    ['a body cut off', new TypeError('terminated'), true],
    ['404', status(404), false],
    ['403', status(403), false],
  ])('%s → retriable %s', (_label, error, retriable) => {
    expect(translateDownloadError(error, noDeadline, 'dl')).toMatchObject({
      code: 'GENERATION_RESULT_DOWNLOAD_FAILED',
      retriable,
    });
  });
});
