import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelUnavailableError } from '../model-errors';
import { retryAfterMs } from '@lomo/resilience';
import { translateOpenAIError } from './openai-errors';

const settled = { callerAborted: false, timedOut: false, timeoutMs: 1000 };
const apiError = (status: number, code: string | null = null, headers: Record<string, string> = {}) =>
  APIError.generate(status, { error: { message: 'nope', type: 't', code } }, undefined, new Headers(headers));

describe("translateOpenAIError (the SDK's own error classes)", () => {
  it.each([
    [400, 'MODEL_BAD_REQUEST', false],
    [401, 'MODEL_AUTH_FAILED', false],
    [403, 'MODEL_AUTH_FAILED', false],
    [404, 'MODEL_BAD_REQUEST', false],
    [408, 'MODEL_TIMEOUT', true],
    [409, 'MODEL_UNAVAILABLE', true],
    [413, 'MODEL_BAD_REQUEST', false],
    [422, 'MODEL_BAD_REQUEST', false],
    [429, 'MODEL_RATE_LIMITED', true],
    [500, 'MODEL_UNAVAILABLE', true],
    [503, 'MODEL_UNAVAILABLE', true],
  ])('maps HTTP %i to %s (retriable %s)', (status, code, retriable) => {
    expect(translateOpenAIError(apiError(status), settled)).toMatchObject({ code, retriable });
  });

  it('keeps the vendor details as plain data and the vendor error as the cause', () => {
    const vendor = apiError(400, 'invalid_value', { 'x-request-id': 'req_1' });
    const error = translateOpenAIError(vendor, settled);
    expect(error.details).toMatchObject({
      status: 400,
      vendorCode: 'invalid_value',
      vendorType: 't',
      requestId: 'req_1',
    });
    expect(error.cause).toBe(vendor);
  });

  it('reads the retry-after of a 429 and refuses to retry an exhausted quota', () => {
    expect(translateOpenAIError(apiError(429, null, { 'retry-after': '2' }), settled)).toMatchObject({
      retryAfterMs: 2000,
    });
    expect(translateOpenAIError(apiError(429, 'insufficient_quota'), settled)).toMatchObject({ retriable: false });
  });

  it('maps connection failures, timeouts and aborts', () => {
    expect(translateOpenAIError(new APIConnectionError({ message: 'refused' }), settled).code).toBe(
      'MODEL_UNAVAILABLE',
    );
    expect(translateOpenAIError(new APIConnectionTimeoutError(), settled).code).toBe('MODEL_TIMEOUT');
    expect(translateOpenAIError(new APIUserAbortError(), settled).code).toBe('MODEL_ABORTED');
  });

  it("lets the caller's abort and our deadline win over whatever the SDK threw", () => {
    const thrown = new APIConnectionError({ message: 'socket closed' });
    expect(translateOpenAIError(thrown, { ...settled, callerAborted: true }).code).toBe('MODEL_ABORTED');
    expect(translateOpenAIError(thrown, { ...settled, timedOut: true })).toMatchObject({
      code: 'MODEL_TIMEOUT',
      details: { timeoutMs: 1000 },
    });
  });

  it('passes ModelErrors through and calls anything else an invalid response', () => {
    const ours = new ModelUnavailableError('x');
    expect(translateOpenAIError(ours, settled)).toBe(ours);
    expect(translateOpenAIError(new SyntaxError('Unexpected token <'), settled)).toMatchObject({
      code: 'MODEL_INVALID_RESPONSE',
      retriable: false,
    });
  });
});

describe('retryAfterMs', () => {
  const h = (headers: Record<string, string>) => new Headers(headers);
  it('prefers retry-after-ms, then retry-after in seconds or as an HTTP date', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': '1.5' }))).toBe(1500);
    const now = Date.parse('2024-01-01T00:00:00Z');
    expect(retryAfterMs(h({ 'retry-after': 'Mon, 01 Jan 2024 00:00:03 GMT' }), now)).toBe(3000);
  });

  it('ignores absent, negative or unreadable values', () => {
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs(h({}))).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': '-3' }))).toBeUndefined();
    expect(retryAfterMs(h({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});
