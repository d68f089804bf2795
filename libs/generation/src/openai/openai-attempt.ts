import type { AttemptOutcome } from './openai-generation-errors';

/**
 * One SDK call under our own deadline. The SDK's `timeout` stops at the response headers; an
 * image answer is megabytes of base64 and a video download is larger, so a stalled body must end
 * the attempt too (the same reasoning as libs/llm/src/openai/attempt-deadline.ts). The translate
 * function is told whether it was our deadline that fired, because the SDK then reports a plain
 * abort and only we know it was a timeout.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  run: (signal: AbortSignal) => Promise<T>,
  translate: (error: unknown, outcome: AttemptOutcome) => Error,
): Promise<T> {
  const attempt = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort();
  }, timeoutMs);
  try {
    return await run(attempt.signal);
  } catch (error) {
    throw translate(error, { timedOut, timeoutMs });
  } finally {
    clearTimeout(timer);
  }
}
