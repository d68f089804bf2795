import { StoreUnavailableError } from '@lomo/contracts';

// Lock contention that outlived the busy timeout, or the disk failing: the caller may retry.
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL)/;

/**
 * Recognised by shape, not `instanceof`: the native addon keeps the error class of the first
 * module instance (and realm) that loaded it, so under a fresh module registry (jest, hot
 * reload) neither `Database.SqliteError` nor even `Error` is the class it throws.
 */
function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'SqliteError' && typeof code === 'string' ? code : undefined;
}

/** Turns driver errors into the port's typed errors; anything else is passed through as is. */
export function mapSqliteError(error: unknown): unknown {
  const code = sqliteCode(error);
  if (code !== undefined && UNAVAILABLE.test(code)) {
    return new StoreUnavailableError(`SQLite event store unavailable (${code})`, error);
  }
  return error;
}

export function isDuplicateEventIdError(error: unknown): boolean {
  return (
    sqliteCode(error) === 'SQLITE_CONSTRAINT_UNIQUE' &&
    String((error as { message?: unknown }).message).includes('events.event_id')
  );
}
