import Database from 'better-sqlite3';
import { ConfigError, StoreUnavailableError } from '@lomo/contracts';
import { mapSqliteError } from './sqlite-errors';

export type SynchronousMode = 'FULL' | 'NORMAL';

/**
 * FULL: every acknowledged append survives a power loss, not only a process crash. NORMAL in WAL
 * mode survives process crashes but may lose the last commits on power loss; it is an opt-in.
 */
export const DEFAULT_SYNCHRONOUS: SynchronousMode = 'FULL';
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

const SCHEMA_VERSION = 1;

// `position` is the global order. AUTOINCREMENT so a position is never handed out twice even if
// the tail were ever removed; it is assigned under the BEGIN IMMEDIATE write lock, so positions
// become visible to readers strictly in order (a poller reading "after X" never skips one).
const DDL = `
CREATE TABLE IF NOT EXISTS events (
  position       INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id      TEXT    NOT NULL,
  revision       INTEGER NOT NULL,
  event_id       TEXT    NOT NULL UNIQUE,
  type           TEXT    NOT NULL,
  schema_version INTEGER NOT NULL,
  data           TEXT    NOT NULL,
  metadata       TEXT    NOT NULL,
  occurred_at    TEXT    NOT NULL,
  UNIQUE (stream_id, revision)
);
CREATE TABLE IF NOT EXISTS checkpoints (
  subscriber_id TEXT PRIMARY KEY,
  position      INTEGER NOT NULL,
  updated_at    TEXT    NOT NULL
);
`;

export interface OpenOptions {
  synchronous: SynchronousMode;
  busyTimeoutMs: number;
}

/** The pragmas every connection on an event-store file uses; the bench applies the same ones. */
export function applyPragmas(db: Database.Database, options: OpenOptions): void {
  // The busy timeout first: switching to WAL needs a lock another process may hold briefly.
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new ConfigError(`The event store needs WAL mode, got ${String(mode)}`, []);
  db.pragma(`synchronous = ${options.synchronous}`);
}

/** Opens (creating if needed) an event-store file. Safe when several processes open it at once. */
export function openEventStoreDatabase(filename: string, options: OpenOptions): Database.Database {
  if (options.synchronous !== 'FULL' && options.synchronous !== 'NORMAL') {
    throw new ConfigError(`Invalid synchronous mode ${String(options.synchronous)}`, [
      { variable: 'synchronous', message: "'FULL' or 'NORMAL'" },
    ]);
  }
  // SQLite does not call the busy handler everywhere at open (switching a new file to WAL, a
  // connection running WAL recovery), so two processes opening one file at once can get
  // SQLITE_BUSY at once: the whole open is retried until the busy timeout has passed.
  const deadline = Date.now() + Math.max(0, options.busyTimeoutMs);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return openOnce(filename, options);
    } catch (error) {
      const busy = error instanceof StoreUnavailableError && /SQLITE_BUSY|SQLITE_LOCKED/.test(error.message);
      if (!busy || Date.now() >= deadline) throw error;
      sleepSync(Math.min(50, 2 * attempt));
    }
  }
}

/** Open is synchronous (constructors call it), so is its pause between attempts. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function openOnce(filename: string, options: OpenOptions): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(filename, { timeout: options.busyTimeoutMs });
    applyPragmas(db, options);
    const connection = db;
    connection
      .transaction(() => {
        const version = connection.pragma('user_version', { simple: true }) as number;
        if (version > SCHEMA_VERSION) {
          throw new ConfigError(`Event store schema ${version} is newer than this code (${SCHEMA_VERSION})`, []);
        }
        connection.exec(DDL);
        if (version < SCHEMA_VERSION) connection.pragma(`user_version = ${SCHEMA_VERSION}`);
      })
      .immediate();
    return connection;
  } catch (error) {
    db?.close();
    throw mapSqliteError(error);
  }
}
