import { LomoError } from '@lomo/contracts';

/**
 * Every failure of a ModelProvider surfaces as one of these. The runtime and the logs match on
 * `code`; the shared retry helper reads `retriable`. Vendor errors never cross the port.
 */
export const MODEL_ERROR_CODES = [
  'MODEL_RATE_LIMITED',
  'MODEL_UNAVAILABLE',
  'MODEL_TIMEOUT',
  'MODEL_BAD_REQUEST',
  'MODEL_AUTH_FAILED',
  'MODEL_ABORTED',
  'MODEL_UNSCRIPTED',
  'MODEL_INVALID_RESPONSE',
  'MODEL_INVALID_OUTPUT',
  'MODEL_REFUSED',
  'MODEL_BUDGET_EXHAUSTED',
] as const;

export type ModelErrorCode = (typeof MODEL_ERROR_CODES)[number];

// Events store error messages up to 4000 characters (contracts `typedError`); stay well inside.
const MAX_MESSAGE = 3000;

export abstract class ModelError extends LomoError {
  abstract override readonly code: ModelErrorCode;

  protected constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message, details);
    // Kept for debugging only; `details` stays plain data so it can be logged or recorded.
    if (cause !== undefined) this.cause = cause;
  }
}

export class ModelRateLimitedError extends ModelError {
  readonly code = 'MODEL_RATE_LIMITED';
  readonly retriable: boolean;
  constructor(
    message: string,
    /** The server's retry-after, when it sent one. */
    readonly retryAfterMs?: number,
    options: { retriable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { ...options.details, retryAfterMs }, options.cause);
    // An exhausted quota answers 429 too, but waiting does not refill it.
    this.retriable = options.retriable ?? true;
  }
}

export class ModelUnavailableError extends ModelError {
  readonly code = 'MODEL_UNAVAILABLE';
  readonly retriable = true;
  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, details, cause);
  }
}

export class ModelTimeoutError extends ModelError {
  readonly code = 'MODEL_TIMEOUT';
  readonly retriable = true;
  constructor(
    message: string,
    readonly timeoutMs?: number,
    cause?: unknown,
  ) {
    super(message, { timeoutMs }, cause);
  }
}

export class ModelBadRequestError extends ModelError {
  readonly code = 'MODEL_BAD_REQUEST';
  readonly retriable = false;
  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, details, cause);
  }
}

export class ModelAuthFailedError extends ModelError {
  readonly code = 'MODEL_AUTH_FAILED';
  readonly retriable = false;
  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, details, cause);
  }
}

/** The caller aborted (a stopped task); never retried, never a fault of the model. */
export class ModelAbortedError extends ModelError {
  readonly code = 'MODEL_ABORTED';
  readonly retriable = false;
  constructor(message = 'The model call was aborted by the caller', cause?: unknown) {
    super(message, {}, cause);
  }
}

/** The scripted adapter received a request its fixture does not cover: a test bug, never retried. */
export class ModelUnscriptedError extends ModelError {
  readonly code = 'MODEL_UNSCRIPTED';
  readonly retriable = false;
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class ModelInvalidResponseError extends ModelError {
  readonly code = 'MODEL_INVALID_RESPONSE';
  readonly retriable = false;
  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, details, cause);
  }
}

/**
 * A structured answer that still did not parse or match its schema after the retry
 * (structured/structured-output.ts). Not retriable: asking a third time costs more than it
 * usually fixes; the caller falls back (the router asks the person).
 */
export class ModelInvalidOutputError extends ModelError {
  readonly code = 'MODEL_INVALID_OUTPUT';
  readonly retriable = false;
  constructor(
    message: string,
    readonly attempts: number,
    readonly usage: { inputTokens: number; outputTokens: number },
    details: Record<string, unknown> = {},
  ) {
    super(message, { ...details, attempts, usage });
  }
}

/** The model declined to answer (OpenAI's `message.refusal`); asking again gets the same. */
export class ModelRefusedError extends ModelError {
  readonly code = 'MODEL_REFUSED';
  readonly retriable = false;
  constructor(
    message: string,
    readonly refusal: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, { ...details, refusal });
  }
}

export const isModelError = (error: unknown): error is ModelError => error instanceof ModelError;

/** Rejects at once when the caller has already given up, so no adapter does work nobody awaits. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelAbortedError(undefined, signal.reason);
}

/**
 * The process spent its model token budget (LOMO_MODEL_TOKEN_BUDGET; token-budget.ts): nothing
 * more is sent until a restart with a new budget. Not retriable: waiting does not refill it.
 */
export class ModelBudgetExhaustedError extends ModelError {
  readonly code = 'MODEL_BUDGET_EXHAUSTED';
  readonly retriable = false;
  constructor(
    readonly budgetTokens: number,
    readonly spentTokens: number,
  ) {
    super(`The model token budget is spent: ${spentTokens} of ${budgetTokens} tokens (LOMO_MODEL_TOKEN_BUDGET)`, {
      budgetTokens,
      spentTokens,
    });
  }
}
