import { DocumentStoreUnavailableError } from '../document-store.errors';

/**
 * A lock around the write transactions of several connections to one SQLite file, for threads
 * of one process (rebuild threads). SQLite's own busy handler sleeps and retries, so threads
 * writing back to back can keep another waiting until its busy timeout runs out; with this lock
 * a waiting thread is woken the moment the file is free. It is held only while a transaction runs.
 */
export interface SqliteWriteLock {
  acquire(): void;
  release(): void;
}

export const WRITE_LOCK_BYTES = 4;
const FREE = 0;
const HELD = 1;

/**
 * A lock in a SharedArrayBuffer of WRITE_LOCK_BYTES, shared by the threads that write one file.
 * Waiting is bounded: a holder that died inside a transaction makes the others fail, not hang.
 */
export function sharedWriteLock(buffer: SharedArrayBuffer, timeoutMs = 60_000): SqliteWriteLock {
  const cell = new Int32Array(buffer, 0, 1);
  return {
    acquire() {
      const deadline = Date.now() + timeoutMs;
      while (Atomics.compareExchange(cell, 0, FREE, HELD) !== FREE) {
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new DocumentStoreUnavailableError(`SQLite write lock still held after ${timeoutMs} ms`);
        }
        Atomics.wait(cell, 0, HELD, Math.min(left, 1_000));
      }
    },
    release() {
      Atomics.store(cell, 0, FREE);
      Atomics.notify(cell, 0, 1);
    },
  };
}
