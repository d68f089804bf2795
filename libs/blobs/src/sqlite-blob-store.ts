import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { ValidationError } from '@lomo/contracts';
import { BlobCorruptedError, BlobStoreUnavailableError } from './blob-errors';
import type { BlobRef, BlobStore } from './blob-store.port';

const hashPattern = /^[0-9a-f]{64}$/;

export interface SqliteBlobStoreOptions {
  filename: string;
  /**
   * FULL (the default, as the README's event store): every put survives a power loss on its own.
   * NORMAL is for a table inside the event store's own file, whose blobs are only referenced by
   * events appended after them: WAL frames are replayed in order under a cumulative checksum, so
   * the event's FULL commit makes the blob before it durable too (one fsync per edit, not two).
   */
  synchronous?: 'FULL' | 'NORMAL';
  busyTimeoutMs?: number;
}

/**
 * Blobs as rows of one SQLite table (WAL), addressed by sha256: no file and no fsync of its own
 * per blob, so small blobs (document patches) cost a row insert. Several processes may share
 * the file; putting the same content twice is a no-op.
 */
export class SqliteBlobStore implements BlobStore {
  private readonly db: Database.Database;
  private readonly statements: {
    has: Database.Statement<[string], { one: number }>;
    get: Database.Statement<[string], { content: Buffer }>;
    insert: Database.Statement<[string, Buffer, string, number]>;
    delete: Database.Statement<[string]>;
  };

  constructor(options: SqliteBlobStoreOptions) {
    const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
    this.db = new Database(options.filename, { timeout: busyTimeoutMs });
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    this.db.exec(`CREATE TABLE IF NOT EXISTS blobs (
      hash         TEXT    PRIMARY KEY,
      content      BLOB    NOT NULL,
      content_type TEXT    NOT NULL,
      bytes        INTEGER NOT NULL
    ) WITHOUT ROWID`);
    this.statements = {
      has: this.db.prepare('SELECT 1 AS one FROM blobs WHERE hash = ?'),
      get: this.db.prepare('SELECT content FROM blobs WHERE hash = ?'),
      insert: this.db.prepare('INSERT OR IGNORE INTO blobs (hash, content, content_type, bytes) VALUES (?, ?, ?, ?)'),
      delete: this.db.prepare('DELETE FROM blobs WHERE hash = ?'),
    };
  }

  async put(content: Buffer | string, contentType: string): Promise<BlobRef> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const hash = createHash('sha256').update(bytes).digest('hex');
    // A repeat reads instead of taking the write lock (and, under FULL, an fsync).
    if (this.run(() => this.statements.has.get(hash)) === undefined)
      this.run(() => this.statements.insert.run(hash, bytes, contentType, bytes.length));
    return { hash, bytes: bytes.length, contentType };
  }

  async get(hash: string): Promise<Buffer | undefined> {
    checkHash(hash);
    const row = this.run(() => this.statements.get.get(hash));
    if (row === undefined) return undefined;
    const actual = createHash('sha256').update(row.content).digest('hex');
    if (actual !== hash) throw new BlobCorruptedError(hash, actual);
    return row.content;
  }

  async has(hash: string): Promise<boolean> {
    checkHash(hash);
    return this.run(() => this.statements.has.get(hash)) !== undefined;
  }

  async delete(hash: string): Promise<boolean> {
    checkHash(hash);
    return this.run(() => this.statements.delete.run(hash)).changes > 0;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private run<T>(query: () => T): T {
    try {
      return query();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || !this.db.open)
        throw new BlobStoreUnavailableError('the blob database is busy or closed', error);
      throw error;
    }
  }
}

function checkHash(hash: string): void {
  if (!hashPattern.test(hash))
    throw new ValidationError('blob hash must be 64 hex characters', [
      { path: 'hash', message: 'not a sha256 hex digest' },
    ]);
}
