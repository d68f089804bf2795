import { DocumentStoreUnavailableError, UniqueConstraintError } from '../document-store.errors';
import { uniqueFieldsInMessage } from '../index-spec';

// Lock contention that outlived the busy timeout, or the disk failing: the caller may retry.
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL)/;

interface SqliteErrorShape {
  code: string;
  message: string;
}

/**
 * Recognised by shape, not `instanceof`: the native addon keeps the error class of the first
 * module instance that loaded it, so under a fresh module registry (jest) `instanceof` fails.
 */
function asSqliteError(error: unknown): SqliteErrorShape | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  return name === 'SqliteError' && typeof code === 'string' ? { code, message: String(message) } : undefined;
}

export function isNoSuchTable(error: unknown): boolean {
  return asSqliteError(error)?.message.startsWith('no such table') === true;
}

export function isPrimaryKeyViolation(error: unknown): boolean {
  const e = asSqliteError(error);
  return e !== undefined && /^SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)$/.test(e.code) && e.message.endsWith('._id');
}

/** Turns driver errors into the port's typed errors; anything else is passed through as is. */
export function mapSqliteError(error: unknown, collection: string): unknown {
  const e = asSqliteError(error);
  if (e === undefined) return error;
  if (UNAVAILABLE.test(e.code))
    return new DocumentStoreUnavailableError(`SQLite document store unavailable (${e.code})`, error);
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE')
    return new UniqueConstraintError(collection, uniqueFieldsInMessage(e.message), error);
  return error;
}
