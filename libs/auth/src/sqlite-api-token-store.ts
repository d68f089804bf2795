import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { ApiTokenRecord } from './api-token';
import type { ApiTokenStore, NewApiToken, RevokeOutcome } from './api-token-store.port';

interface Row {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
}

const toRecord = (row: Row): ApiTokenRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  userId: row.user_id,
  name: row.name,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

const COLUMNS = 'id, workspace_id, user_id, name, created_at, revoked_at';

/**
 * Tokens in a SQLite file of their own (`auth.sqlite`). The CLI and the app open the same file
 * from different processes: WAL lets the app read while the CLI writes, and every lookup is a
 * fresh statement, so a revocation is seen by the next request.
 */
export class SqliteApiTokenStore implements ApiTokenStore {
  private readonly db: Database.Database;

  constructor(filename: string) {
    mkdirSync(dirname(filename), { recursive: true });
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS api_tokens (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        secret_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX IF NOT EXISTS api_tokens_workspace ON api_tokens (workspace_id, created_at);
    `);
  }

  insert(token: NewApiToken): Promise<ApiTokenRecord> {
    this.db
      .prepare(
        'INSERT INTO api_tokens (id, workspace_id, user_id, name, secret_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(token.id, token.workspaceId, token.userId, token.name, token.secretHash, token.createdAt);
    const { secretHash: _hash, ...record } = token;
    return Promise.resolve({ ...record, revokedAt: null });
  }

  findActiveByHash(secretHash: string): Promise<ApiTokenRecord | undefined> {
    const row = this.db
      .prepare<[string], Row>(`SELECT ${COLUMNS} FROM api_tokens WHERE secret_hash = ? AND revoked_at IS NULL`)
      .get(secretHash);
    return Promise.resolve(row === undefined ? undefined : toRecord(row));
  }

  list(filter: { workspaceId?: string; includeRevoked?: boolean } = {}): Promise<ApiTokenRecord[]> {
    const where: string[] = [];
    const params: string[] = [];
    if (filter.workspaceId !== undefined) {
      where.push('workspace_id = ?');
      params.push(filter.workspaceId);
    }
    if (!filter.includeRevoked) where.push('revoked_at IS NULL');
    const sql = `SELECT ${COLUMNS} FROM api_tokens ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`;
    return Promise.resolve(
      this.db
        .prepare<string[], Row>(sql)
        .all(...params)
        .map(toRecord),
    );
  }

  revoke(id: string, at: string): Promise<RevokeOutcome> {
    const outcome = this.db
      .transaction((): RevokeOutcome => {
        const row = this.db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM api_tokens WHERE id = ?`).get(id);
        if (row === undefined) return 'not_found';
        if (row.revoked_at !== null) return 'already_revoked';
        this.db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE id = ?').run(at, id);
        return 'revoked';
      })
      .immediate();
    return Promise.resolve(outcome);
  }

  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return Promise.resolve();
  }
}
