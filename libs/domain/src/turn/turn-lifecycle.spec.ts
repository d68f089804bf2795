import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { turnDecider } from './turn-decider';
import type { TurnCommand } from './turn-commands';
import { waitSatisfied } from './turn-queries';
import {
  at,
  call,
  callCompleted,
  callStarted,
  cancelled,
  LEASE_MS,
  leased,
  runningWithCall,
  runtime,
  started,
  stepCommitted,
  turnIds,
} from './turn.fixtures';
import type { TurnEvent } from './turn-events';

const { given } = deciderSpec(turnDecider);
const waitingOnCall: TurnEvent = { type: 'TurnWaiting', data: { on: { kind: 'calls', callIds: [call(1, 0)] } } };
const asyncWaiting = [...runningWithCall('export.long'), callStarted(call(1, 0), 'export.long'), waitingOnCall];
const completedTurn: TurnEvent = { type: 'TurnCompleted', data: { steps: 1 } };
const failure = { code: 'MODEL_FAILED', message: 'the model kept failing', retriable: false };

describe('turn lifecycle', () => {
  it('starts once; starting it again writes nothing', () => {
    const start = {
      type: 'StartTurn' as const,
      turnId: turnIds.turn,
      taskId: turnIds.task,
      reason: 'message' as const,
    };
    given([]).when(start).then([started]);
    given([started]).when(start).then([]);
  });

  it('waits on an async call, releasing the worker, and resumes as queued for a new lease', () => {
    given([...runningWithCall('export.long'), callStarted(call(1, 0), 'export.long')])
      .when({ type: 'WaitTurn', generation: 1, on: { kind: 'calls', callIds: [call(1, 0)] } })
      .then([waitingOnCall]);
    const waiting = fold(turnDecider, asyncWaiting);
    expect(waiting).toMatchObject({ status: 'waiting', lease: null });
    expect(waitSatisfied(waiting)).toBe(false);
    expect(waitSatisfied(fold(turnDecider, [...asyncWaiting, callCompleted(call(1, 0))]))).toBe(true);
    given(asyncWaiting)
      .when({ type: 'TakeLease', workerId: 'worker-a', now: at(5), leaseMs: LEASE_MS })
      .thenThrows('TURN_WAITING');
    given([...asyncWaiting, callCompleted(call(1, 0))])
      .when({ type: 'ResumeTurn', reason: 'job_completed' })
      .then([{ type: 'TurnResumed', data: { reason: 'job_completed' } }]);
  });

  it('a duplicate wake-up resumes nothing', () => {
    given(runningWithCall()).when({ type: 'ResumeTurn', reason: 'watchdog' }).then([]);
  });

  it('the next lease after a wait raises the generation', () => {
    const resumed: TurnEvent = { type: 'TurnResumed', data: { reason: 'job_completed' } };
    given([...asyncWaiting, callCompleted(call(1, 0)), resumed])
      .when({ type: 'TakeLease', workerId: 'worker-a', now: at(10), leaseMs: LEASE_MS })
      .then([leased('worker-a', 2, at(40))]);
  });

  it('completes only when every call is settled and the step count matches', () => {
    given(runningWithCall()).when({ type: 'CompleteTurn', generation: 1, steps: 1 }).thenThrows('CALLS_PENDING');
    const settled = [...runningWithCall(), callStarted(call(1, 0)), callCompleted(call(1, 0))];
    given(settled).when({ type: 'CompleteTurn', generation: 1, steps: 2 }).thenThrows('STEP_COUNT_MISMATCH');
    given(settled).when({ type: 'CompleteTurn', generation: 1, steps: 1 }).then([completedTurn]);
  });

  it('cancels from queued, running or waiting; twice writes nothing', () => {
    const cancel = { type: 'CancelTurn' as const, by: runtime, reason: 'task_stopped' as const };
    given([started]).when(cancel).then([cancelled]);
    given(runningWithCall()).when(cancel).then([cancelled]);
    given(asyncWaiting).when(cancel).then([cancelled]);
    given([...runningWithCall(), cancelled])
      .when(cancel)
      .then([]);
  });

  it('fails without a generation (the watchdog giving up)', () => {
    given(runningWithCall())
      .when({ type: 'FailTurn', error: failure })
      .then([{ type: 'TurnFailed', data: { error: failure } }]);
  });

  const terminal: Array<[string, TurnEvent[]]> = [
    ['completed', [started, leased('worker-a', 1, at(30)), stepCommitted(1), completedTurn]],
    ['cancelled', [...runningWithCall(), cancelled]],
    ['failed', [...runningWithCall(), { type: 'TurnFailed', data: { error: failure } }]],
  ];
  const afterwards: TurnCommand[] = [
    { type: 'TakeLease', workerId: 'worker-b', now: at(100), leaseMs: LEASE_MS },
    { type: 'StartToolCall', generation: 1, callId: call(1, 0), attempt: 1 },
    { type: 'ResumeTurn', reason: 'watchdog' },
    { type: 'FailTurn', error: failure },
  ];
  it.each(terminal)('a %s turn refuses further work with TURN_CLOSED', (_status, history) => {
    for (const command of afterwards) given(history).when(command).thenThrows('TURN_CLOSED');
  });

  it('refuses to cancel a completed turn', () => {
    given(terminal[0][1]).when({ type: 'CancelTurn', by: runtime, reason: 'operator' }).thenThrows('TURN_CLOSED');
  });

  it('refuses work on a turn that was never started', () => {
    given([])
      .when({ type: 'TakeLease', workerId: 'w', now: at(0), leaseMs: LEASE_MS })
      .thenThrows('TURN_NOT_FOUND');
  });
});

describe('a waiting turn completed by the last result (a one-shot job)', () => {
  const done = { type: 'CompleteWaitingTurn' as const, summary: 'Made the image' };

  it('completes once every call it waits on has its result, without a worker; a repeat is a no-op []', () => {
    const settled = [...asyncWaiting, callCompleted(call(1, 0))];
    given(settled)
      .when(done)
      .then([{ type: 'TurnCompleted', data: { steps: 1, summary: 'Made the image' } }]);
    given([...settled, { type: 'TurnCompleted', data: { steps: 1, summary: 'Made the image' } }])
      .when(done)
      .then([]);
  });

  it('is refused while a call still waits for its result, and for a turn that is not waiting', () => {
    given(asyncWaiting).when(done).thenThrows('CALLS_PENDING');
    given(runningWithCall('export.long')).when(done).thenThrows('INVALID_COMMAND');
  });
});
