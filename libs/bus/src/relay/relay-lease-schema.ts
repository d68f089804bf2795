import Database from 'better-sqlite3';
import { guarded } from '../in-process/sqlite-errors';

// The table may live in a file with its own schema (the event store's or the bus log's), so it
// never touches user_version, which those files use for their own migrations.
const ddl = `
CREATE TABLE IF NOT EXISTS relay_leases (
  relay_id TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  changed_at INTEGER NOT NULL
) WITHOUT ROWID;
`;

export interface RelayLeaseRow {
  relay_id: string;
  holder: string;
  epoch: number;
  expires_at: number;
  changed_at: number;
}

export interface SqliteFileOptions {
  /** A file path shared by every relay instance, or ':memory:' (one process: unit tests). */
  filename: string;
  /** How long a write waits for another process's write lock before failing as unavailable. */
  busyTimeoutMs?: number;
  /** FULL (default): a lease change survives a power loss, as the bus log's appends do. */
  synchronous?: 'FULL' | 'NORMAL';
}

/** Opens a connection the way every bus file is opened (WAL, busy timeout) and adds the lease table. */
export function openLeaseDatabase(options: SqliteFileOptions): Database.Database {
  return guarded('open', () => {
    const db = new Database(options.filename, { timeout: options.busyTimeoutMs ?? 5000 });
    try {
      if (options.filename !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
      db.transaction(() => db.exec(ddl)).immediate();
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
}
