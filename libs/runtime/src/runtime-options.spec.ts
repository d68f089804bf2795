import { resolveRuntimeOptions } from './runtime-options';

describe('runtime options', () => {
  it('renew at a third of the lease unless told otherwise', () => {
    expect(resolveRuntimeOptions({ workerId: 'w1' })).toMatchObject({
      leaseMs: 10_000,
      renewEveryMs: 3_333,
      watchdogIntervalMs: 2_000,
    });
    expect(resolveRuntimeOptions({ workerId: 'w1', leaseMs: 9_000 }).renewEveryMs).toBe(3_000);
  });

  it('refuse a renewal interval that would let the lease lapse, naming the field', () => {
    expect(() => resolveRuntimeOptions({ workerId: 'w1', leaseMs: 1_000, renewEveryMs: 1_000 })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        issues: [expect.objectContaining({ path: 'renewEveryMs' })],
      }),
    );
    expect(() => resolveRuntimeOptions({ workerId: 'bad id!' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});
