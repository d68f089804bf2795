import { createSqliteDocumentStoreHarness } from '@lomo/read-models/testing';
import { hashTokenSecret } from './api-token';
import { ApiTokens } from './api-tokens';
import { CachingApiTokenStore, MAX_REVOCATION_DELAY_MS } from './caching-api-token-store';
import { DocumentApiTokenStore } from './document-api-token-store';

describe('CachingApiTokenStore: the bound on a revocation reaching another instance', () => {
  it('accepts a token created elsewhere at once and refuses one revoked elsewhere once its entry is older than the TTL', async () => {
    const documents = await createSqliteDocumentStoreHarness();
    let now = 1_000_000;
    const clock = () => now;
    // Two API instances on one store, each with its own cache.
    const a = new CachingApiTokenStore(new DocumentApiTokenStore(documents.store), 5_000, clock);
    const b = new CachingApiTokenStore(new DocumentApiTokenStore(await documents.openAnother()), 5_000, clock);
    try {
      const issued = await new ApiTokens(a).issue({ workspaceId: 'ws1', userId: 'u1' });
      const hash = hashTokenSecret(issued.secret);
      expect((await b.findActiveByHash(hash))?.id).toBe(issued.record.id);
      expect((await a.findActiveByHash(hash))?.id).toBe(issued.record.id);

      now += 1_000;
      expect(await new ApiTokens(a).revoke(issued.record.id)).toBe('revoked');
      // The revoking instance forgets at once; the other trusts its entry until it is 5 s old.
      expect(await a.findActiveByHash(hash)).toBeUndefined();
      now += 3_999;
      expect((await b.findActiveByHash(hash))?.id).toBe(issued.record.id);
      now += 1;
      expect(await b.findActiveByHash(hash)).toBeUndefined();
      // Refusals are not cached: nothing to wait for after it is gone.
      expect(await b.findActiveByHash(hash)).toBeUndefined();
    } finally {
      await documents.dispose();
    }
  });

  it('does not cache unknown tokens, so a token created on another instance is accepted at its first use', async () => {
    const documents = await createSqliteDocumentStoreHarness();
    const a = new CachingApiTokenStore(new DocumentApiTokenStore(documents.store), 5_000, () => 0);
    const b = new CachingApiTokenStore(new DocumentApiTokenStore(await documents.openAnother()), 5_000, () => 0);
    try {
      const tokens = new ApiTokens(a);
      const issued = await tokens.issue({ workspaceId: 'ws1', userId: 'u1' });
      const other = await tokens.issue({ workspaceId: 'ws1', userId: 'u2' });
      expect(await b.findActiveByHash(hashTokenSecret(`${issued.secret}x`))).toBeUndefined();
      expect((await b.findActiveByHash(hashTokenSecret(other.secret)))?.userId).toBe('u2');
    } finally {
      await documents.dispose();
    }
  });

  it.each([-1, 1.5, MAX_REVOCATION_DELAY_MS + 1])('refuses a TTL of %s (the bound is 0 to 5 000 ms)', async (ttl) => {
    const documents = await createSqliteDocumentStoreHarness();
    try {
      expect(() => new CachingApiTokenStore(new DocumentApiTokenStore(documents.store), ttl)).toThrow(RangeError);
    } finally {
      await documents.dispose();
    }
  });
});
