import { randomUUID } from 'node:crypto';
import { generateTokenSecret, hashTokenSecret, tokenSecretPattern, type TokenKind } from '../api-token';
import type { ApiTokenStore, NewApiToken } from '../api-token-store.port';
import { ApiTokens } from '../api-tokens';
import { authenticate } from '../authenticate';

export interface ApiTokenStoreHarness {
  store: ApiTokenStore;
  /** A second store on the same storage: another API instance, or the CLI in another process. */
  openAnother(): Promise<ApiTokenStore>;
  dispose(): Promise<void>;
}

export type ApiTokenStoreHarnessFactory = () => Promise<ApiTokenStoreHarness>;

const newToken = (overrides: Partial<NewApiToken> = {}): NewApiToken => ({
  id: randomUUID(),
  workspaceId: 'ws1',
  userId: 'u1',
  name: 'laptop',
  kind: 'person',
  secretHash: hashTokenSecret(generateTokenSecret()),
  createdAt: new Date().toISOString(),
  ...overrides,
});

/**
 * The one behavioural contract of the ApiTokenStore port, run against every adapter: the
 * document store on SQLite in `npm test`, on FerretDB in `npm run test:distributed`. A fresh
 * storage per test, so tests do not see each other's tokens.
 */
export function describeApiTokenStoreContract(name: string, factory: ApiTokenStoreHarnessFactory): void {
  describe(`ApiTokenStore contract: ${name}`, () => {
    let harness: ApiTokenStoreHarness;
    const opened: ApiTokenStore[] = [];
    const another = async () => {
      const store = await harness.openAnother();
      opened.push(store);
      return store;
    };
    beforeEach(async () => {
      harness = await factory();
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
      await harness.dispose();
    });

    it('stores only the hash, authenticates the secret, and refuses it once revoked through another instance', async () => {
      const app = harness.store;
      const cli = await another();
      const issued = await new ApiTokens(cli).issue({ workspaceId: 'ws1', userId: 'u1', name: 'laptop' });
      expect(issued.secret).toMatch(tokenSecretPattern);

      const appTokens = new ApiTokens(app);
      expect(await authenticate(`Bearer ${issued.secret}`, appTokens)).toEqual({
        tokenId: issued.record.id,
        tokenName: 'laptop',
        workspaceId: 'ws1',
        userId: 'u1',
        kind: 'person',
      });
      expect(await app.findActiveByHash(issued.secret)).toBeUndefined();
      expect((await app.findActiveByHash(hashTokenSecret(issued.secret)))?.id).toBe(issued.record.id);

      expect(await new ApiTokens(cli).revoke(issued.record.id)).toBe('revoked');
      expect(await new ApiTokens(cli).revoke(issued.record.id)).toBe('already_revoked');
      expect(await app.revoke(issued.record.id, new Date().toISOString())).toBe('already_revoked');
      await expect(authenticate(`Bearer ${issued.secret}`, appTokens)).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
        httpStatus: 401,
      });
      expect(await app.list()).toEqual([]);
      expect(await app.list({ includeRevoked: true })).toEqual([
        expect.objectContaining({ id: issued.record.id, revokedAt: expect.any(String) }),
      ]);
      expect(await app.revoke('no-such-token', new Date().toISOString())).toBe('not_found');
    });

    it.each<TokenKind>(['person', 'integration', 'operator'])(
      'keeps the kind %s and gives it to the caller',
      async (kind) => {
        const issued = await new ApiTokens(harness.store).issue({ workspaceId: 'ws1', userId: 'u1', kind });
        expect(issued.record.kind).toBe(kind);
        const other = new ApiTokens(await another());
        expect((await authenticate(`Bearer ${issued.secret}`, other)).kind).toBe(kind);
        expect((await other.list())[0]).toMatchObject({ id: issued.record.id, kind });
      },
    );

    it('lists by workspace in creation order, live ones unless asked for all', async () => {
      const store = harness.store;
      const a = await store.insert(newToken({ workspaceId: 'ws_a', createdAt: '2025-01-01T00:00:02.000Z' }));
      const b = await store.insert(newToken({ workspaceId: 'ws_a', createdAt: '2025-01-01T00:00:01.000Z' }));
      const c = await store.insert(newToken({ workspaceId: 'ws_b', createdAt: '2025-01-01T00:00:00.000Z' }));
      await store.revoke(b.id, '2025-01-02T00:00:00.000Z');
      expect((await store.list({ workspaceId: 'ws_a' })).map((r) => r.id)).toEqual([a.id]);
      expect((await store.list({ workspaceId: 'ws_a', includeRevoked: true })).map((r) => r.id)).toEqual([b.id, a.id]);
      expect((await store.list({ includeRevoked: true })).map((r) => r.id)).toEqual([c.id, b.id, a.id]);
      expect((await store.list({ includeRevoked: true }))[1]).toEqual({
        id: b.id,
        workspaceId: 'ws_a',
        userId: 'u1',
        name: 'laptop',
        kind: 'person',
        createdAt: '2025-01-01T00:00:01.000Z',
        revokedAt: '2025-01-02T00:00:00.000Z',
      });
    });

    it('refuses a second token with the same id or secret hash (TOKEN_CONFLICT) and keeps the first', async () => {
      const first = newToken();
      await harness.store.insert(first);
      const other = await another();
      await expect(other.insert(newToken({ secretHash: first.secretHash, userId: 'u2' }))).rejects.toMatchObject({
        code: 'TOKEN_CONFLICT',
      });
      await expect(other.insert(newToken({ id: first.id, userId: 'u2' }))).rejects.toMatchObject({
        code: 'TOKEN_CONFLICT',
      });
      expect(await harness.store.list({ includeRevoked: true })).toEqual([
        expect.objectContaining({ id: first.id, userId: 'u1' }),
      ]);
      expect((await other.findActiveByHash(first.secretHash))?.userId).toBe('u1');
    });

    it('gives one `revoked` to two instances revoking the same token at once', async () => {
      const token = await harness.store.insert(newToken());
      const other = await another();
      const at = new Date().toISOString();
      const outcomes = await Promise.all([harness.store.revoke(token.id, at), other.revoke(token.id, at)]);
      expect(outcomes.sort()).toEqual(['already_revoked', 'revoked']);
    });

    it.each([
      ['no header', undefined],
      ['another scheme', 'Basic dXNlcjpwdw=='],
      ['a malformed secret', 'Bearer lomo_short'],
      ['an unknown secret', `Bearer lomo_${'x'.repeat(43)}`],
    ])('refuses %s as UNAUTHENTICATED', async (_what, header) => {
      await expect(authenticate(header, new ApiTokens(harness.store))).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
      });
    });
  });
}
