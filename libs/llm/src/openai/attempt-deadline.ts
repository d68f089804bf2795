import { throwIfAborted } from '../model-errors';
import { translateOpenAIError } from './openai-errors';

/**
 * One attempt of an OpenAI SDK call under our own deadline and the caller's signal. The SDK's
 * timeout stops at the response headers; this deadline also covers a stalled body. Errors are
 * translated at the boundary (openai-errors.ts), telling our timeout from the caller's abort.
 */
export async function withAttemptDeadline<T>(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  throwIfAborted(callerSignal);
  const attempt = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort();
  }, timeoutMs);
  const onCallerAbort = () => attempt.abort();
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    return await run(attempt.signal);
  } catch (error) {
    throw translateOpenAIError(error, { callerAborted: callerSignal?.aborted === true, timedOut, timeoutMs });
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}
