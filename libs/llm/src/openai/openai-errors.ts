import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { retryAfterMs } from '@lomo/resilience';
import {
  ModelAbortedError,
  ModelAuthFailedError,
  ModelBadRequestError,
  ModelError,
  ModelInvalidResponseError,
  ModelRateLimitedError,
  ModelTimeoutError,
  ModelUnavailableError,
} from '../model-errors';

function fromStatus(error: APIError, status: number): ModelError {
  const details = {
    status,
    vendorCode: error.code ?? null,
    vendorType: error.type ?? null,
    requestId: error.requestID ?? null,
  };
  const message = `model endpoint answered ${error.message}`;
  if (status === 401 || status === 403) return new ModelAuthFailedError(message, details, error);
  if (status === 408) return new ModelTimeoutError(message, undefined, error);
  if (status === 429) {
    // OpenAI answers 429 for an exhausted quota as well; waiting does not fix that one.
    const retriable = error.code !== 'insufficient_quota';
    return new ModelRateLimitedError(message, retryAfterMs(error.headers), { retriable, details, cause: error });
  }
  // 409 is a transient lock conflict on OpenAI's side (its own SDK retries it).
  if (status === 409 || status >= 500) return new ModelUnavailableError(message, details, error);
  return new ModelBadRequestError(message, details, error);
}

export interface AttemptOutcome {
  /** The caller's signal fired: whatever the SDK threw, this is an abort. */
  callerAborted: boolean;
  /** Our per-attempt deadline fired. */
  timedOut: boolean;
  timeoutMs: number;
}

/** Translates whatever one SDK call threw into a ModelError; vendor classes stop here. */
export function translateOpenAIError(error: unknown, outcome: AttemptOutcome): ModelError {
  if (outcome.callerAborted) return new ModelAbortedError(undefined, error);
  if (outcome.timedOut || error instanceof APIConnectionTimeoutError) {
    return new ModelTimeoutError(`no complete response within ${outcome.timeoutMs} ms`, outcome.timeoutMs, error);
  }
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError) return new ModelAbortedError(undefined, error);
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new ModelUnavailableError(`cannot reach the model endpoint (${error.message}${cause})`, {}, error);
  }
  if (error instanceof APIError && typeof error.status === 'number') return fromStatus(error, error.status);
  // Anything else came out of reading or parsing the body.
  const message = error instanceof Error ? error.message : String(error);
  return new ModelInvalidResponseError(`unreadable model response: ${message}`, {}, error);
}
