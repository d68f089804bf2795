/**
 * The one retry helper: exponential backoff with full jitter, bounded attempts, retrying only
 * errors the caller calls retriable (by default those whose `retriable` flag is true).
 */
export interface BackoffOptions {
  initialDelayMs: number;
  maxDelayMs: number;
  factor?: number;
  /** 0..1, share of the delay that is randomized. 1 = full jitter. */
  jitter?: number;
}

export interface RetryOptions extends BackoffOptions {
  maxAttempts: number;
  isRetriable?: (error: unknown, attempt: number) => boolean;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  signal?: AbortSignal;
}

export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const factor = options.factor ?? 2;
  const jitter = options.jitter ?? 1;
  const base = Math.min(options.maxDelayMs, options.initialDelayMs * factor ** Math.max(0, attempt - 1));
  return Math.round(base * (1 - jitter) + base * jitter * random());
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export const isMarkedRetriable = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { retriable?: unknown }).retriable === true;

export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const isRetriable = options.isRetriable ?? isMarkedRetriable;
  const wait = options.sleep ?? sleep;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= options.maxAttempts || !isRetriable(error, attempt) || options.signal?.aborted) throw error;
      const delay = backoffDelay(attempt, options, options.random);
      options.onRetry?.(error, attempt, delay);
      await wait(delay, options.signal);
    }
  }
}
