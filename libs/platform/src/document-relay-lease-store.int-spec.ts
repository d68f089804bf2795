import { SqliteDocumentStore } from '@lomo/read-models';
import { DocumentRelayLeaseStore } from './document-relay-lease-store';

const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 0, 0, s));

describe('DocumentRelayLeaseStore (the relay lease on the read-model database)', () => {
  let documents: SqliteDocumentStore;
  let leases: DocumentRelayLeaseStore;
  beforeEach(() => {
    documents = new SqliteDocumentStore({ filename: ':memory:' });
    leases = new DocumentRelayLeaseStore(documents);
  });
  afterEach(() => documents.close());

  it('elects one holder; another takes over only after expiry, under a higher epoch', async () => {
    expect(await leases.tryAcquire('r', 'a', at(0), 10_000)).toMatchObject({ holder: 'a', epoch: 1 });
    expect(await leases.tryAcquire('r', 'b', at(5), 10_000)).toBeUndefined();
    expect(await leases.tryAcquire('r', 'a', at(5), 10_000)).toMatchObject({ holder: 'a', epoch: 1 });
    expect(await leases.tryAcquire('r', 'b', at(16), 10_000)).toMatchObject({ holder: 'b', epoch: 2 });
    expect(await leases.renew('r', 'a', 1, at(16), 10_000)).toBe(false);
    expect(await leases.renew('r', 'b', 2, at(20), 10_000)).toBe(true);
    expect(await leases.current('r')).toMatchObject({ holder: 'b', epoch: 2, expiresAt: at(30).getTime() });
  });

  it('a release lets a standby take the lease at once, under a new epoch', async () => {
    await leases.tryAcquire('r', 'a', at(0), 10_000);
    await leases.release('r', 'a', 1);
    expect(await leases.tryAcquire('r', 'b', at(1), 10_000)).toMatchObject({ holder: 'b', epoch: 3 });
  });

  it('two instances racing for an expired lease: exactly one wins', async () => {
    await leases.tryAcquire('r', 'a', at(0), 1_000);
    const other = new DocumentRelayLeaseStore(documents);
    const results = await Promise.all([
      leases.tryAcquire('r', 'b', at(5), 10_000),
      other.tryAcquire('r', 'c', at(5), 10_000),
    ]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
  });
});
