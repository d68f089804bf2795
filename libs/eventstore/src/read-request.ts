import { ValidationError } from '@lomo/contracts';
import type { ReadStreamOptions } from './event-store.port';

/** Backend-neutral checks of read options, so every adapter refuses the same bad input. */
export function assertMaxCount(maxCount: number | undefined): void {
  if (maxCount === undefined || (Number.isSafeInteger(maxCount) && maxCount >= 0)) return;
  throw new ValidationError(`Invalid maxCount ${String(maxCount)}`, [{ path: 'maxCount', message: 'an integer >= 0' }]);
}

export function assertReadStreamOptions(options: ReadStreamOptions): void {
  assertMaxCount(options.maxCount);
  const from = options.fromRevision;
  if (from !== undefined && from !== 'start' && from !== 'end' && !(Number.isSafeInteger(from) && from >= 0)) {
    throw new ValidationError(`Invalid fromRevision ${String(from)}`, [
      { path: 'fromRevision', message: "a revision >= 0, 'start' or 'end'" },
    ]);
  }
  if (options.direction !== undefined && options.direction !== 'forwards' && options.direction !== 'backwards') {
    throw new ValidationError(`Invalid direction ${String(options.direction)}`, [
      { path: 'direction', message: "'forwards' or 'backwards'" },
    ]);
  }
}
