import { deciderSpec } from '@lomo/testing';
import { turnDecider } from './turn-decider';
import type { TurnCommand } from './turn-commands';
import { at, call, LEASE_MS, promptRef, takenOver, usage } from './turn.fixtures';

const { given } = deciderSpec(turnDecider);

// Worker A (generation 1) lost the turn to worker B (generation 2) while step 1's call was intended.
const staleCommands: Array<[string, TurnCommand]> = [
  [
    'CommitStep',
    {
      type: 'CommitStep',
      generation: 1,
      step: 2,
      reply: 'late',
      toolCallIntents: [],
      consumedItemIds: [],
      usage,
      promptRef,
      finishReason: 'stop',
    },
  ],
  ['StartToolCall', { type: 'StartToolCall', generation: 1, callId: call(1, 0), attempt: 1 }],
  [
    'RecordToolOutcomeUnknown',
    { type: 'RecordToolOutcomeUnknown', generation: 1, callId: call(1, 0), reason: 'worker_lost' },
  ],
  ['RenewLease', { type: 'RenewLease', generation: 1, workerId: 'worker-a', now: at(95), leaseMs: LEASE_MS }],
  ['ReleaseLease', { type: 'ReleaseLease', generation: 1, workerId: 'worker-a', now: at(95) }],
  ['WaitTurn', { type: 'WaitTurn', generation: 1, on: { kind: 'calls', callIds: [call(1, 0)] } }],
  ['CompleteTurn', { type: 'CompleteTurn', generation: 1, steps: 1 }],
  [
    'FailTurn',
    { type: 'FailTurn', generation: 1, error: { code: 'MODEL_FAILED', message: 'gave up', retriable: false } },
  ],
];

describe('turn: a stale generation is refused', () => {
  it.each(staleCommands)('refuses %s from the generation that lost the lease', (_name, command) => {
    given(takenOver()).when(command).thenThrows('STALE_GENERATION');
  });

  it('accepts the same command from the current generation', () => {
    given(takenOver())
      .when({ type: 'StartToolCall', generation: 2, callId: call(1, 0), attempt: 1 })
      .then([
        {
          type: 'ToolCallStarted',
          data: { callId: call(1, 0), tool: 'notes.read', idempotencyKey: call(1, 0), attempt: 1 },
        },
      ]);
  });

  it('refuses a generation from the future as well', () => {
    given(takenOver())
      .when({ type: 'StartToolCall', generation: 3, callId: call(1, 0), attempt: 1 })
      .thenThrows('STALE_GENERATION');
  });
});
