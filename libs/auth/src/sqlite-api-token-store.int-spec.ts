import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { hashTokenSecret, tokenSecretPattern } from './api-token';
import { ApiTokens } from './api-tokens';
import { authenticate } from './authenticate';
import { SqliteApiTokenStore } from './sqlite-api-token-store';

describe('API tokens on SQLite', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-auth-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stores only the hash, authenticates the secret, and refuses it once revoked through another connection', async () => {
    const file = path.join(dir, 'auth.sqlite');
    const app = new SqliteApiTokenStore(file);
    const cli = new SqliteApiTokenStore(file);
    try {
      const issued = await new ApiTokens(cli).issue({ workspaceId: 'ws1', userId: 'u1', name: 'laptop' });
      expect(issued.secret).toMatch(tokenSecretPattern);

      const appTokens = new ApiTokens(app);
      expect(await authenticate(`Bearer ${issued.secret}`, appTokens)).toEqual({
        tokenId: issued.record.id,
        tokenName: 'laptop',
        workspaceId: 'ws1',
        userId: 'u1',
      });
      expect(await app.findActiveByHash(issued.secret)).toBeUndefined();
      expect((await app.findActiveByHash(hashTokenSecret(issued.secret)))?.id).toBe(issued.record.id);

      expect(await new ApiTokens(cli).revoke(issued.record.id)).toBe('revoked');
      expect(await new ApiTokens(cli).revoke(issued.record.id)).toBe('already_revoked');
      await expect(authenticate(`Bearer ${issued.secret}`, appTokens)).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
        httpStatus: 401,
      });
      expect(await app.list()).toEqual([]);
      expect(await app.list({ includeRevoked: true })).toEqual([
        expect.objectContaining({ id: issued.record.id, revokedAt: expect.any(String) }),
      ]);
    } finally {
      await app.close();
      await cli.close();
    }
  });

  it.each([
    ['no header', undefined],
    ['another scheme', 'Basic dXNlcjpwdw=='],
    ['a malformed secret', 'Bearer lomo_short'],
    ['an unknown secret', `Bearer lomo_${'x'.repeat(43)}`],
  ])('refuses %s as UNAUTHENTICATED', async (_what, header) => {
    const store = new SqliteApiTokenStore(path.join(dir, 'auth.sqlite'));
    try {
      await expect(authenticate(header, new ApiTokens(store))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    } finally {
      await store.close();
    }
  });
});
