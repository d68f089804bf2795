import Database from 'better-sqlite3';

export interface ToolsDatabaseOptions {
  /** A file path; several processes may share it. */
  filename: string;
  /** How long a write waits for another connection's lock. */
  busyTimeoutMs?: number;
  /** FULL (default): an acknowledged effect survives a power loss, as the event store's appends do. */
  synchronous?: 'FULL' | 'NORMAL';
}

export const DEFAULT_TOOLS_BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens a SQLite file for tool state (WAL, busy timeout) and applies `ddl` under the write lock,
 * so processes opening the same new file at once do not race on creating tables.
 */
export function openToolsDatabase(options: ToolsDatabaseOptions, ddl: string): Database.Database {
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_TOOLS_BUSY_TIMEOUT_MS;
  const db = new Database(options.filename, { timeout: busyTimeoutMs });
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    db.transaction(() => db.exec(ddl)).immediate();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
