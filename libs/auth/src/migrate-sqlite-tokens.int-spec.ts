import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '@lomo/config';
import { silentLogger, type Logger } from '@lomo/observability';
import { generateTokenSecret, hashTokenSecret } from './api-token';
import { ApiTokens } from './api-tokens';
import { authenticate } from './authenticate';
import { migrateSqliteTokens } from './migrate-sqlite-tokens';
import { authSettings, openApiTokenStore } from './open-api-token-store';

/** The token file as earlier versions wrote it (their SqliteApiTokenStore's schema). */
function writeLegacyFile(file: string, rows: Array<{ id: string; secret: string; revokedAt: string | null }>) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE api_tokens (
      id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT NOT NULL, name TEXT NOT NULL,
      secret_hash TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL, revoked_at TEXT
    );`);
  const insert = db.prepare(
    'INSERT INTO api_tokens (id, workspace_id, user_id, name, secret_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  rows.forEach((r, i) =>
    insert.run(r.id, 'ws1', `u${i}`, 'old', hashTokenSecret(r.secret), `2024-01-01T00:00:0${i}.000Z`, r.revokedAt),
  );
  db.close();
}

function recordingLogger() {
  const lines: Array<{ context: Record<string, unknown>; message: string }> = [];
  const logger: Logger = {
    ...silentLogger,
    info: (context, message) => void lines.push({ context, message }),
    child: () => logger,
  };
  return { logger, lines };
}

describe('migration of the old SQLite token file into the document store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-auth-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('copies every token once, as person, keeps revocations, leaves the file in place, and is idempotent', async () => {
    const live = generateTokenSecret();
    const gone = generateTokenSecret();
    writeLegacyFile(path.join(dir, 'auth.sqlite'), [
      { id: 'old-live', secret: live, revokedAt: null },
      { id: 'old-gone', secret: gone, revokedAt: '2024-02-01T00:00:00.000Z' },
    ]);
    const config = loadConfig({ LOMO_DATA_DIR: dir, LOMO_MODE: 'embedded', NODE_ENV: 'test' });
    const before = readFileSync(path.join(dir, 'auth.sqlite'));

    const { logger, lines } = recordingLogger();
    const store = await openApiTokenStore(authSettings(config), logger);
    try {
      const tokens = new ApiTokens(store);
      expect(await authenticate(`Bearer ${live}`, tokens)).toMatchObject({
        tokenId: 'old-live',
        userId: 'u0',
        kind: 'person',
      });
      await expect(authenticate(`Bearer ${gone}`, tokens)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(await store.list({ includeRevoked: true })).toEqual([
        expect.objectContaining({
          id: 'old-live',
          kind: 'person',
          revokedAt: null,
          createdAt: '2024-01-01T00:00:00.000Z',
        }),
        expect.objectContaining({ id: 'old-gone', kind: 'person', revokedAt: '2024-02-01T00:00:00.000Z' }),
      ]);
      expect(lines).toContainEqual({
        context: expect.objectContaining({ inserted: 2, revoked: 0, unchanged: 0 }),
        message: 'API tokens of the SQLite token file migrated to the shared store',
      });

      // A second start finds every id already there: nothing inserted, nothing changed.
      expect(await migrateSqliteTokens(config.LOMO_AUTH_SQLITE_PATH, store, silentLogger)).toEqual({
        inserted: 0,
        revoked: 0,
        unchanged: 2,
      });
      expect(await store.list({ includeRevoked: true })).toHaveLength(2);
      // Only read: its bytes are as they were (an older version rolled back to still works).
      expect(readFileSync(path.join(dir, 'auth.sqlite')).equals(before)).toBe(true);

      // A token revoked in the old file later (an older CLI during a rollout) is revoked here too.
      const db = new Database(config.LOMO_AUTH_SQLITE_PATH);
      db.prepare("UPDATE api_tokens SET revoked_at = '2024-03-01T00:00:00.000Z' WHERE id = 'old-live'").run();
      db.close();
      expect(await migrateSqliteTokens(config.LOMO_AUTH_SQLITE_PATH, store, silentLogger)).toEqual({
        inserted: 0,
        revoked: 1,
        unchanged: 1,
      });
      await expect(authenticate(`Bearer ${live}`, tokens)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    } finally {
      await store.close();
    }
  });

  it('does nothing without an old file', async () => {
    const config = loadConfig({ LOMO_DATA_DIR: dir, LOMO_MODE: 'embedded', NODE_ENV: 'test' });
    const store = await openApiTokenStore(authSettings(config), silentLogger);
    try {
      expect(await migrateSqliteTokens(config.LOMO_AUTH_SQLITE_PATH, store, silentLogger)).toBeUndefined();
      expect(await store.list({ includeRevoked: true })).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
