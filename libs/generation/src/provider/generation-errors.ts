import { LomoError } from '@lomo/contracts';

/** Every error a GenerationProvider adapter lets out. */
export abstract class GenerationProviderError extends LomoError {}

/**
 * The request reached the upstream and no answer came back (timeout, connection lost after
 * sending, a 5xx after sending): a job may exist. Never resubmitted automatically: the job fails
 * and is refunded (DESIGN.md §5, one key = one order).
 */
export class GenerationOutcomeUnknownError extends GenerationProviderError {
  readonly code = 'GENERATION_OUTCOME_UNKNOWN';
  readonly retriable = false;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** 429: no job was created; retry with backoff. */
export class GenerationRateLimitedError extends GenerationProviderError {
  readonly code = 'GENERATION_RATE_LIMITED';
  readonly retriable = true;
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message, { retryAfterMs });
  }
}

/** The connection was refused or failed before anything was sent: no job exists; retriable. */
export class GenerationUnavailableError extends GenerationProviderError {
  readonly code = 'GENERATION_UNAVAILABLE';
  readonly retriable = true;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** No provider is configured for this kind of media (e.g. 3D with only the OpenAI adapters). */
export class GenerationKindUnavailableError extends GenerationProviderError {
  readonly code = 'GENERATION_KIND_UNAVAILABLE';
  readonly retriable = false;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** 400 and other refusals of the request itself: no job, nothing to refund but the reservation. */
export class GenerationRejectedError extends GenerationProviderError {
  readonly code = 'GENERATION_REJECTED';
  readonly retriable = false;
  constructor(
    message: string,
    readonly status?: number,
    details: Record<string, unknown> = {},
  ) {
    super(message, { status, ...details });
  }
}

/** 401/403: credentials are wrong; no job. */
export class GenerationAuthFailedError extends GenerationProviderError {
  readonly code = 'GENERATION_AUTH_FAILED';
  readonly retriable = false;
  constructor(message: string) {
    super(message);
  }
}

/** The upstream does not know the job (poll or cancel of an id it never issued). */
export class UpstreamJobNotFoundError extends GenerationProviderError {
  readonly code = 'UPSTREAM_JOB_NOT_FOUND';
  readonly retriable = false;
  constructor(readonly upstreamJobId: string) {
    super(`The upstream has no job ${upstreamJobId}`, { upstreamJobId });
  }
}

/** A result download failed; retriable ones are retried without regenerating. */
export class ResultDownloadError extends GenerationProviderError {
  readonly code = 'GENERATION_RESULT_DOWNLOAD_FAILED';
  constructor(
    message: string,
    readonly retriable: boolean,
  ) {
    super(message);
  }
}

export const callbackRejectionCodes = [
  'CALLBACK_BAD_SIGNATURE',
  'CALLBACK_STALE_TIMESTAMP',
  'CALLBACK_MALFORMED',
  'CALLBACK_UNKNOWN_PROVIDER',
  'CALLBACK_UNKNOWN_JOB',
  'CALLBACK_REPLAYED',
] as const;
export type CallbackRejectionCode = (typeof callbackRejectionCodes)[number];

/** A callback that must not be trusted: answered with a 4xx carrying this code; nothing appended. */
export class CallbackRejectedError extends LomoError {
  readonly retriable = false;
  constructor(
    readonly code: CallbackRejectionCode,
    message: string,
    readonly httpStatus: 400 | 401 | 404 | 409 = code === 'CALLBACK_MALFORMED'
      ? 400
      : code === 'CALLBACK_UNKNOWN_JOB' || code === 'CALLBACK_UNKNOWN_PROVIDER'
        ? 404
        : code === 'CALLBACK_REPLAYED'
          ? 409
          : 401,
  ) {
    super(message, { code });
  }
}
