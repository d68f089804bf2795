import { isLomoError } from '@lomo/contracts';
import { retry } from '@lomo/resilience';
import {
  isModelError,
  MODEL_ERROR_CODES,
  ModelAbortedError,
  ModelAuthFailedError,
  ModelBadRequestError,
  ModelBudgetExhaustedError,
  ModelInvalidOutputError,
  ModelInvalidResponseError,
  ModelRefusedError,
  ModelRateLimitedError,
  ModelTimeoutError,
  ModelUnavailableError,
  ModelUnscriptedError,
} from './model-errors';

describe('ModelError', () => {
  const all = [
    new ModelRateLimitedError('429', 1000),
    new ModelUnavailableError('503'),
    new ModelTimeoutError('slow', 5000),
    new ModelBadRequestError('400'),
    new ModelAuthFailedError('401'),
    new ModelAbortedError(),
    new ModelUnscriptedError('?'),
    new ModelInvalidResponseError('garbage'),
    new ModelInvalidOutputError('bad json twice', 2, { inputTokens: 10, outputTokens: 4 }),
    new ModelRefusedError('refused', 'I cannot help with that'),
    new ModelBudgetExhaustedError(1000, 1012),
  ];

  it('has one class per stable code, each a LomoError', () => {
    expect(all.map((e) => e.code)).toEqual([...MODEL_ERROR_CODES]);
    expect(all.every((e) => isLomoError(e) && isModelError(e))).toBe(true);
  });

  it('marks only rate limits, unavailability and timeouts retriable', () => {
    expect(all.filter((e) => e.retriable).map((e) => e.code)).toEqual([
      'MODEL_RATE_LIMITED',
      'MODEL_UNAVAILABLE',
      'MODEL_TIMEOUT',
    ]);
    expect(new ModelRateLimitedError('quota', undefined, { retriable: false }).retriable).toBe(false);
  });

  it('is what the shared retry helper retries by default', async () => {
    let calls = 0;
    const failing = (error: Error) => () => {
      calls += 1;
      return Promise.reject(error);
    };
    const options = { maxAttempts: 3, initialDelayMs: 0, maxDelayMs: 0 };
    await expect(retry(failing(new ModelUnavailableError('x')), options)).rejects.toThrow('x');
    expect(calls).toBe(3);
    calls = 0;
    await expect(retry(failing(new ModelBadRequestError('y')), options)).rejects.toThrow('y');
    expect(calls).toBe(1);
  });

  it('keeps messages within what an event may record', () => {
    expect(new ModelUnscriptedError('x'.repeat(10_000)).message.length).toBeLessThanOrEqual(3000);
  });
});
