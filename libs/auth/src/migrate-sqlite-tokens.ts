import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { isLomoError } from '@lomo/contracts';
import type { Logger } from '@lomo/observability';
import { DEFAULT_TOKEN_KIND } from './api-token';
import type { ApiTokenStore } from './api-token-store.port';

interface LegacyRow {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface TokenMigrationOutcome {
  /** Tokens of the file the store did not hold, now inserted (as `person`, revoked or not as in the file). */
  inserted: number;
  /** Tokens the store held live but the file has revoked (revoked there by an older CLI): revoked. */
  revoked: number;
  /** Tokens already in the store in the same or a later state. */
  unchanged: number;
}

/**
 * Copies the tokens of the per-process SQLite file of earlier versions (`LOMO_AUTH_SQLITE_PATH`,
 * table `api_tokens`) into the shared store. Idempotent by token id: a token the store already
 * holds is not inserted again, so running it at every start (and on several instances at once)
 * is safe, and several pods' files merge. Revocations only move forward. The file is only read:
 * it stays in place, so an older version rolled back to still finds its tokens.
 */
export async function migrateSqliteTokens(
  file: string,
  store: ApiTokenStore,
  logger: Logger,
): Promise<TokenMigrationOutcome | undefined> {
  if (!existsSync(file)) return undefined;
  const rows = readLegacyRows(file);
  if (rows.length === 0) return undefined;
  const known = new Map((await store.list({ includeRevoked: true })).map((r) => [r.id, r]));
  const outcome: TokenMigrationOutcome = { inserted: 0, revoked: 0, unchanged: 0 };
  for (const row of rows) {
    const existing = known.get(row.id);
    if (existing === undefined) {
      try {
        await store.insert({
          id: row.id,
          workspaceId: row.workspace_id,
          userId: row.user_id,
          name: row.name,
          kind: DEFAULT_TOKEN_KIND,
          secretHash: row.secret_hash,
          createdAt: row.created_at,
        });
      } catch (error) {
        // Another instance migrating the same file at the same moment inserted it first.
        if (!(isLomoError(error) && error.code === 'TOKEN_CONFLICT')) throw error;
      }
      if (row.revoked_at !== null) await store.revoke(row.id, row.revoked_at);
      outcome.inserted += 1;
    } else if (row.revoked_at !== null && existing.revokedAt === null) {
      await store.revoke(row.id, row.revoked_at);
      outcome.revoked += 1;
    } else {
      outcome.unchanged += 1;
    }
  }
  if (outcome.inserted + outcome.revoked > 0) {
    logger.info(
      { component: 'auth', file, ...outcome },
      'API tokens of the SQLite token file migrated to the shared store',
    );
  }
  return outcome;
}

function readLegacyRows(file: string): LegacyRow[] {
  const db = new Database(file, { fileMustExist: true, timeout: 5_000 });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'api_tokens'").get();
    if (table === undefined) return [];
    return db
      .prepare<[], LegacyRow>(
        'SELECT id, workspace_id, user_id, name, secret_hash, created_at, revoked_at FROM api_tokens ORDER BY created_at, id',
      )
      .all();
  } finally {
    db.close();
  }
}
