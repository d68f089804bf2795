import { RebuildLease } from './rebuild-lease';

describe('RebuildLease: renewed by the injected clock a third of a lease after the last renewal', () => {
  it('renews only once a third of the lease passed on the given clock, and counts from the renewal', async () => {
    let now = 1_000_000;
    const renewals: number[] = [];
    const lease = new RebuildLease(
      async () => void renewals.push(now),
      30_000,
      () => new Date(now),
    );

    now += 10_000;
    await lease.renewIfDue();
    expect(renewals).toEqual([]);

    now += 1;
    await lease.renewIfDue();
    expect(renewals).toEqual([1_010_001]);

    now += 10_000;
    await lease.renewIfDue();
    expect(renewals).toHaveLength(1);
  });

  it('a failed renewal is tried again at the next call, and a call during a renewal starts none', async () => {
    let now = 0;
    let attempts = 0;
    let release: () => void = () => undefined;
    const lease = new RebuildLease(
      () => {
        attempts += 1;
        if (attempts === 1) return Promise.reject(new Error('store down'));
        return new Promise<void>((resolve) => (release = resolve));
      },
      3_000,
      () => new Date(now),
    );
    now = 1_001;
    await expect(lease.renewIfDue()).rejects.toThrow('store down');
    const second = lease.renewIfDue();
    await lease.renewIfDue();
    expect(attempts).toBe(2);
    release();
    await second;
    await lease.renewIfDue();
    expect(attempts).toBe(2);
  });
});
