import { LomoError } from '@lomo/contracts';

/**
 * The caller's deadline passed (its AbortSignal fired) before recall finished. The runtime skips
 * memory for that step and records `timeout` (article §7.4: "召回逾時可以暫時跳過記憶補充").
 */
export class MemoryRecallTimeoutError extends LomoError {
  readonly code = 'MEMORY_RECALL_TIMEOUT';
  readonly retriable = true;
  constructor(details: Record<string, unknown> = {}) {
    super('Memory recall was aborted before it finished', details);
  }
}

/** Throws the typed timeout when the signal has fired. */
export function throwIfRecallAborted(signal: AbortSignal | undefined, stage: string): void {
  if (signal?.aborted) throw new MemoryRecallTimeoutError({ stage });
}

/**
 * Settles with `work`, or rejects with MemoryRecallTimeoutError as soon as the signal fires, so a
 * slow index or blob store cannot hold the step past its deadline (the work is left to finish
 * on its own; recall has no side effects to undo).
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined, stage: string): Promise<T> {
  if (!signal) return work;
  throwIfRecallAborted(signal, stage);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new MemoryRecallTimeoutError({ stage }));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
