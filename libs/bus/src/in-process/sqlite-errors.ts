import Database from 'better-sqlite3';
import { isLomoError } from '@lomo/contracts';
import { BusClosedError, BusStorageError, BusUnavailableError } from '../errors';

// Contention and I/O trouble pass; a corrupt or foreign file does not.
const transientCodes = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL)/;

/** Maps better-sqlite3 failures to the bus's typed errors; LomoErrors pass through. */
export function translateSqliteError(error: unknown, operation: string): Error {
  if (isLomoError(error)) return error;
  if (error instanceof Database.SqliteError) {
    return transientCodes.test(error.code)
      ? new BusUnavailableError(`Bus log ${operation} failed: ${error.code}`, error)
      : new BusStorageError(`Bus log ${operation} failed: ${error.code}`, error);
  }
  // Checked by shape, not instanceof: the native addon's errors may come from another realm (jest).
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && /database connection is not open/i.test(message)) return new BusClosedError();
  return new BusStorageError(`Bus log ${operation} failed`, error);
}

export function guarded<T>(operation: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw translateSqliteError(error, operation);
  }
}
