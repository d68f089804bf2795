import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { turnDecider } from './turn-decider';
import { holdsLease, leaseExpired } from './turn-queries';
import { at, LEASE_MS, leased, started, T0, takenOver } from './turn.fixtures';
import type { TurnEvent } from './turn-events';

const { given } = deciderSpec(turnDecider);
const take = (workerId: string, seconds: number) => ({
  type: 'TakeLease' as const,
  workerId,
  now: at(seconds),
  leaseMs: LEASE_MS,
});

describe('turn: leases', () => {
  it('a queued turn is leased with generation 1', () => {
    given([started])
      .when(take('worker-a', 0))
      .then([leased('worker-a', 1, at(30))]);
    expect(fold(turnDecider, [started, leased('worker-a', 1, at(30))]).status).toBe('running');
  });

  it('the worker named by a live lease takes it over at the next generation (a restarted incarnation)', () => {
    given([started, leased('worker-a', 1, at(30))])
      .when(take('worker-a', 10))
      .then([leased('worker-a', 2, at(40))]);
  });

  it('after its own takeover, the previous incarnation of the same worker id is fenced', () => {
    const history = [started, leased('worker-a', 1, at(30)), leased('worker-a', 2, at(40))];
    given(history)
      .when({ type: 'RenewLease', workerId: 'worker-a', generation: 1, now: at(11), leaseMs: LEASE_MS })
      .thenThrows('STALE_GENERATION');
    given(history)
      .when({ type: 'ReleaseLease', workerId: 'worker-a', generation: 1, now: at(11) })
      .thenThrows('STALE_GENERATION');
    given(history)
      .when({ type: 'RenewLease', workerId: 'worker-a', generation: 2, now: at(11), leaseMs: LEASE_MS })
      .then([{ type: 'TurnLeaseRenewed', data: { workerId: 'worker-a', generation: 2, leaseUntil: at(41) } }]);
  });

  it('another worker is refused while the lease is live, and takes over once it expired', () => {
    const history = [started, leased('worker-a', 1, at(30))];
    given(history).when(take('worker-b', 29)).thenThrows('LEASE_HELD');
    given(history)
      .when(take('worker-b', 30))
      .then([leased('worker-b', 2, at(60))]);
  });

  it('renewing needs the current generation and the same worker', () => {
    const renew = { type: 'RenewLease' as const, now: at(70), leaseMs: LEASE_MS };
    given(takenOver())
      .when({ ...renew, workerId: 'worker-a', generation: 1 })
      .thenThrows('STALE_GENERATION');
    given(takenOver())
      .when({ ...renew, workerId: 'worker-a', generation: 2 })
      .thenThrows('LEASE_LOST');
    given(takenOver())
      .when({ ...renew, workerId: 'worker-b', generation: 2 })
      .then([{ type: 'TurnLeaseRenewed', data: { workerId: 'worker-b', generation: 2, leaseUntil: at(100) } }]);
  });

  it('a released lease (SIGTERM) lets another worker take over at once', () => {
    const release: TurnEvent = {
      type: 'TurnLeaseRenewed',
      data: { workerId: 'worker-a', generation: 1, leaseUntil: at(5) },
    };
    given([started, leased('worker-a', 1, at(30))])
      .when({ type: 'ReleaseLease', workerId: 'worker-a', generation: 1, now: at(5) })
      .then([release]);
    given([started, leased('worker-a', 1, at(30)), release])
      .when(take('worker-b', 5))
      .then([leased('worker-b', 2, at(35))]);
  });

  it('refuses a time that is not an ISO instant, and a lease of no length', () => {
    given([started])
      .when({ ...take('worker-a', 0), now: 'yesterday' })
      .thenThrows('INVALID_COMMAND');
    given([started])
      .when({ ...take('worker-a', 0), leaseMs: 0 })
      .thenThrows('INVALID_COMMAND');
  });

  it('leaseExpired and holdsLease read the lease against the given time', () => {
    const state = fold(turnDecider, [started, leased('worker-a', 1, at(30))]);
    expect(leaseExpired(state, at(29))).toBe(false);
    expect(leaseExpired(state, at(30))).toBe(true);
    expect(holdsLease(state, 'worker-a', 1, at(10))).toBe(true);
    expect(holdsLease(state, 'worker-b', 1, at(10))).toBe(false);
    expect(leaseExpired(fold(turnDecider, [started]), T0)).toBe(true);
  });
});
