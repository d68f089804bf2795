import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SqliteRelayLeaseStore } from './sqlite-relay-lease-store';

const at = (ms: number) => new Date(ms);
const TTL = 1_000;

describe('SqliteRelayLeaseStore', () => {
  let dir: string;
  let a: SqliteRelayLeaseStore;
  let b: SqliteRelayLeaseStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-lease-'));
    // Two connections on one file, as two relay processes have.
    a = SqliteRelayLeaseStore.open({ filename: path.join(dir, 'leases.sqlite') });
    b = SqliteRelayLeaseStore.open({ filename: path.join(dir, 'leases.sqlite') });
  });
  afterEach(() => {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('grants a free lease at epoch 1 and refuses a second holder while it is live', async () => {
    expect(await a.tryAcquire('r', 'h1', at(0), TTL)).toEqual({ relayId: 'r', holder: 'h1', epoch: 1, expiresAt: TTL });
    expect(await b.tryAcquire('r', 'h2', at(TTL - 1), TTL)).toBeUndefined();
    expect(await b.current('r')).toMatchObject({ holder: 'h1', epoch: 1 });
  });

  it('lets the holder extend its lease with the same epoch, even past expiry when nobody took it', async () => {
    await a.tryAcquire('r', 'h1', at(0), TTL);
    expect(await a.renew('r', 'h1', 1, at(500), TTL)).toBe(true);
    expect(await a.renew('r', 'h1', 1, at(5_000), TTL)).toBe(true);
    expect(await a.tryAcquire('r', 'h1', at(5_100), TTL)).toMatchObject({ epoch: 1, expiresAt: 6_100 });
  });

  it('raises the epoch when another holder takes an expired lease, and refuses the old holder from then on', async () => {
    await a.tryAcquire('r', 'h1', at(0), TTL);
    expect(await b.tryAcquire('r', 'h2', at(TTL), TTL)).toMatchObject({ holder: 'h2', epoch: 2 });
    expect(await a.renew('r', 'h1', 1, at(TTL + 1), TTL)).toBe(false);
    await a.release('r', 'h1', 1);
    expect(await a.current('r')).toMatchObject({ holder: 'h2', epoch: 2 });
  });

  it('frees the lease on release with a new epoch, so a standby takes it at once and the old epoch is dead', async () => {
    await a.tryAcquire('r', 'h1', at(0), TTL);
    await a.release('r', 'h1', 1);
    expect(await a.renew('r', 'h1', 1, at(10), TTL)).toBe(false);
    expect(await b.tryAcquire('r', 'h2', at(10), TTL)).toMatchObject({ holder: 'h2', epoch: 3 });
  });

  it('keeps the leases of different relays apart', async () => {
    await a.tryAcquire('r1', 'h1', at(0), TTL);
    expect(await b.tryAcquire('r2', 'h2', at(0), TTL)).toMatchObject({ relayId: 'r2', epoch: 1 });
  });
});
