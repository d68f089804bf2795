import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { retryAfterMs } from '@lomo/resilience';
import {
  GenerationAuthFailedError,
  GenerationOutcomeUnknownError,
  GenerationProviderError,
  GenerationRateLimitedError,
  GenerationRejectedError,
  GenerationUnavailableError,
  ResultDownloadError,
  UpstreamJobNotFoundError,
} from '../provider/generation-errors';

/**
 * Translation of whatever one SDK call threw into the port's errors (../provider/generation-errors.ts),
 * in the style of libs/llm/src/openai/openai-errors.ts: vendor classes stop here.
 *
 * Three tables, because the same wire failure means different things depending on the call:
 * - submit: a paid job may have been created. Only a failure that proves nothing was created may
 *   be anything but GenerationOutcomeUnknownError (DESIGN.md §5, one key = one order).
 * - read (poll, retrieve): nothing is created; a lost answer is simply asked again later.
 * - download: ResultDownloadError, retriable or not, so the bytes are fetched again without
 *   regenerating.
 */

// Events store failure messages up to 2000 characters (contracts GenerationFailed.message).
const MAX_MESSAGE = 2000;

/** How our own per-attempt deadline ended the call (see ./openai-attempt.ts). */
export interface AttemptOutcome {
  timedOut: boolean;
  timeoutMs: number;
}

/**
 * Error codes (node's `code`, undici's too) that are raised before a single byte of the request
 * left this process: DNS failures, refused or unroutable connections, TLS handshake refusals.
 * Anything else on a broken connection is treated as "maybe sent".
 */
const NOTHING_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The `code`s along an error's cause chain (and an AggregateError's members: happy eyeballs). */
export function errorCodes(error: unknown, depth = 0): string[] {
  if (depth > 6 || typeof error !== 'object' || error === null) return [];
  const own = (error as { code?: unknown }).code;
  const codes = typeof own === 'string' ? [own] : [];
  const members = error instanceof AggregateError ? error.errors : [];
  return [
    ...codes,
    ...errorCodes((error as { cause?: unknown }).cause, depth + 1),
    ...members.flatMap((member: unknown) => errorCodes(member, depth + 1)),
  ];
}

/** True only when the connection failed in a way that proves the request was never written. */
export function nothingWasSent(error: APIConnectionError): boolean {
  const codes = errorCodes(error.cause);
  return codes.length > 0 && codes.every((code) => NOTHING_SENT_CODES.has(code));
}

const clip = (message: string) => (message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message);

/** Plain data only (details are logged and recorded): absent fields are null, not undefined. */
function statusDetails(error: APIError): Record<string, unknown> {
  return {
    status: error.status ?? null,
    vendorCode: error.code ?? null,
    vendorType: error.type ?? null,
    requestId: error.requestID ?? null,
  };
}

function describe(error: unknown): string {
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return error instanceof Error ? error.message : String(error);
}

const isTimeout = (error: unknown, outcome: AttemptOutcome) =>
  outcome.timedOut || error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError;

/**
 * submit(): only a refusal the upstream answered (4xx), or a connection that never carried the
 * request, proves no job exists. A timeout, a connection lost after sending, a 5xx, or a 2xx we
 * could not read may each hide a created (and billed) job.
 */
export function translateSubmitError(
  error: unknown,
  outcome: AttemptOutcome,
  operation: string,
): GenerationProviderError {
  if (error instanceof GenerationProviderError) return error;
  if (isTimeout(error, outcome)) {
    return new GenerationOutcomeUnknownError(clip(`${operation}: no answer within ${outcome.timeoutMs} ms`), {
      timeoutMs: outcome.timeoutMs,
    });
  }
  if (error instanceof APIConnectionError) {
    if (nothingWasSent(error)) {
      return new GenerationUnavailableError(clip(`${operation}: cannot reach the upstream (${describe(error)})`), {
        codes: errorCodes(error.cause),
      });
    }
    return new GenerationOutcomeUnknownError(clip(`${operation}: connection lost after sending (${describe(error)})`), {
      codes: errorCodes(error.cause),
    });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const message = clip(`${operation}: upstream answered ${error.message}`);
    const status = error.status;
    if (status === 429) return new GenerationRateLimitedError(message, retryAfterMs(error.headers));
    if (status === 401 || status === 403) return new GenerationAuthFailedError(message);
    if (status >= 500) return new GenerationOutcomeUnknownError(message, statusDetails(error));
    return new GenerationRejectedError(message, status, statusDetails(error));
  }
  return new GenerationOutcomeUnknownError(clip(`${operation}: unreadable answer (${describe(error)})`));
}

/**
 * poll() and other reads: nothing is created, so a lost answer is GenerationUnavailableError
 * (retriable: poll again), never an outcome-unknown that would fail and refund a running job.
 */
export function translateReadError(
  error: unknown,
  outcome: AttemptOutcome,
  operation: string,
  upstreamJobId: string,
): GenerationProviderError {
  if (error instanceof GenerationProviderError) return error;
  if (isTimeout(error, outcome)) {
    return new GenerationUnavailableError(clip(`${operation}: no answer within ${outcome.timeoutMs} ms`), {
      upstreamJobId,
      timeoutMs: outcome.timeoutMs,
    });
  }
  if (error instanceof APIConnectionError) {
    return new GenerationUnavailableError(clip(`${operation}: cannot reach the upstream (${describe(error)})`), {
      upstreamJobId,
      codes: errorCodes(error.cause),
    });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const message = clip(`${operation}: upstream answered ${error.message}`);
    const status = error.status;
    if (status === 404) return new UpstreamJobNotFoundError(upstreamJobId);
    if (status === 429) return new GenerationRateLimitedError(message, retryAfterMs(error.headers));
    if (status === 401 || status === 403) return new GenerationAuthFailedError(message);
    if (status === 408 || status === 409 || status >= 500) {
      return new GenerationUnavailableError(message, { upstreamJobId, ...statusDetails(error) });
    }
    return new GenerationRejectedError(message, status, { upstreamJobId, ...statusDetails(error) });
  }
  return new GenerationUnavailableError(clip(`${operation}: unreadable answer (${describe(error)})`), {
    upstreamJobId,
  });
}

/** Result downloads: retriable unless the upstream said the content is not there for us (4xx). */
export function translateDownloadError(error: unknown, outcome: AttemptOutcome, what: string): ResultDownloadError {
  if (error instanceof ResultDownloadError) return error;
  if (isTimeout(error, outcome)) {
    return new ResultDownloadError(clip(`${what}: no complete download within ${outcome.timeoutMs} ms`), true);
  }
  if (error instanceof APIConnectionError) {
    return new ResultDownloadError(clip(`${what}: connection failed (${describe(error)})`), true);
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const retriable = status === 408 || status === 409 || status === 429 || status >= 500;
    return new ResultDownloadError(clip(`${what}: upstream answered ${error.message}`), retriable);
  }
  // A body that broke off mid-stream surfaces as a plain error from reading it: worth another try.
  return new ResultDownloadError(clip(`${what}: ${describe(error)}`), true);
}
