import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { turnDecider } from './turn-decider';
import type { TurnEvent } from './turn-events';
import { holdsLease, leaseOf } from './turn-queries';
import { at, call, callStarted, cancelled, LEASE_MS, leased, runningWithCall, runtime, started } from './turn.fixtures';

const { given } = deciderSpec(turnDecider);
const waiting: TurnEvent = { type: 'TurnWaiting', data: { on: { kind: 'calls', callIds: [call(1, 0)] } } };
const resumed: TurnEvent = { type: 'TurnResumed', data: { reason: 'job_completed' } };
const failure = { code: 'MODEL_FAILED', message: 'the model kept failing', retriable: false };
const inFlight = [...runningWithCall('export.long'), callStarted(call(1, 0), 'export.long')];

describe('turn: each status carries the fields it has', () => {
  it('a queued turn has no lease yet; a running one always has its lease', () => {
    expect(fold(turnDecider, [started])).toMatchObject({ status: 'queued', lease: null, generation: 0 });
    const running = fold(turnDecider, runningWithCall());
    expect(running).toMatchObject({
      status: 'running',
      lease: { workerId: 'worker-a', generation: 1, leaseUntil: at(30) },
    });
    expect(holdsLease(running, 'worker-a', 1, at(10))).toBe(true);
  });

  it('a waiting turn names what it waits on and holds no lease; resumed, it is queued again', () => {
    expect(fold(turnDecider, [...inFlight, waiting])).toMatchObject({
      status: 'waiting',
      waitingOn: { kind: 'calls', callIds: [call(1, 0)] },
      lease: null,
    });
    const queued = fold(turnDecider, [...inFlight, waiting, resumed]);
    expect(queued).toMatchObject({ status: 'queued', lease: null, generation: 1 });
    expect(queued).not.toHaveProperty('waitingOn');
  });

  it('an ended turn keeps its outcome: cancelled names by whom, failed its error', () => {
    expect(fold(turnDecider, [...inFlight, cancelled])).toMatchObject({
      status: 'cancelled',
      cancelledBy: { by: runtime, reason: 'task_stopped' },
      lease: null,
    });
    expect(fold(turnDecider, [...inFlight, { type: 'TurnFailed', data: { error: failure } }])).toMatchObject({
      status: 'failed',
      error: failure,
      lease: null,
    });
  });

  it('a late wake-up folded after the end cannot reopen the turn', () => {
    const state = fold(turnDecider, [...inFlight, cancelled, resumed]);
    expect(state).toMatchObject({ status: 'cancelled' });
    expect(leaseOf(state)).toBeNull();
    given([...inFlight, cancelled, resumed])
      .when({ type: 'TakeLease', workerId: 'worker-b', now: at(100), leaseMs: LEASE_MS })
      .thenThrows('TURN_CLOSED');
  });

  it('a lease event folded on a waiting turn leaves it waiting (it is resumed first)', () => {
    const state = fold(turnDecider, [...inFlight, waiting, leased('worker-b', 2, at(90))]);
    expect(state).toMatchObject({ status: 'waiting', lease: null, generation: 1 });
  });
});
