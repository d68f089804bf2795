import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { turnDecider } from './turn-decider';
import { callsAwaitingCompletion, callsOfStep, nextStep, pendingCalls, toolCall } from './turn-queries';
import {
  at,
  call,
  callCompleted,
  callStarted,
  cancelled,
  leased,
  promptRef,
  runningWithCall,
  started,
  stepCommitted,
  turnIds,
  usage,
} from './turn.fixtures';
import type { TurnEvent } from './turn-events';

const { given } = deciderSpec(turnDecider);
const running = [started, leased('worker-a', 1, at(30))];
const commit = (step: number, callIds: string[] = []) => ({
  type: 'CommitStep' as const,
  generation: 1,
  step,
  reply: `step ${step}`,
  toolCallIntents: callIds.map((callId, index) => ({ callId, tool: 'notes.read', arguments: { n: index } })),
  consumedItemIds: [],
  usage,
  promptRef,
  finishReason: callIds.length > 0 ? ('tool_calls' as const) : ('stop' as const),
});

describe('turn: steps commit in order with derived call ids', () => {
  it('commits the next step with its intents and consumed items', () => {
    given(running)
      .when({ ...commit(1, [call(1, 0)]), consumedItemIds: [turnIds.item] })
      .then([stepCommitted(1, ['notes.read'], [turnIds.item])]);
  });

  it('refuses to commit a step twice or out of order', () => {
    given([...running, stepCommitted(1)])
      .when(commit(1))
      .thenThrows('STEP_OUT_OF_ORDER');
    given(running).when(commit(2)).thenThrows('STEP_OUT_OF_ORDER');
  });

  it('refuses call ids that are not {turnId}:{step}:{index}', () => {
    given(running)
      .when(commit(1, [call(1, 1)]))
      .thenThrows('INVALID_CALL_ID');
    given(running)
      .when(commit(1, [call(2, 0)]))
      .thenThrows('INVALID_CALL_ID');
  });

  it('refuses a commit on a turn nobody leased (generation 0 is nobody)', () => {
    given([started])
      .when({ ...commit(1), generation: 0 })
      .thenThrows('TURN_NOT_RUNNING');
  });

  it('the ledger tells the runtime what to do next', () => {
    const history = [...running, stepCommitted(1, ['notes.read', 'notes.write']), callStarted(call(1, 0))];
    const state = fold(turnDecider, history);
    expect(nextStep(state)).toBe(2);
    expect(pendingCalls(state).map((c) => c.callId)).toEqual([call(1, 1)]);
    expect(callsAwaitingCompletion(state).map((c) => c.callId)).toEqual([call(1, 0)]);
    expect(callsOfStep(state, 1).map((c) => [c.index, c.status])).toEqual([
      [0, 'started'],
      [1, 'intended'],
    ]);
  });
});

describe('turn: tool calls', () => {
  it('starts a call with the call id as its idempotency key, and retries only as the next attempt', () => {
    given(runningWithCall())
      .when({ type: 'StartToolCall', generation: 1, callId: call(1, 0), attempt: 1 })
      .then([callStarted(call(1, 0))]);
    given([...runningWithCall(), callStarted(call(1, 0))])
      .when({ type: 'StartToolCall', generation: 1, callId: call(1, 0), attempt: 2 })
      .then([callStarted(call(1, 0), 'notes.read', 2)]);
    given([...runningWithCall(), callStarted(call(1, 0))])
      .when({ type: 'StartToolCall', generation: 1, callId: call(1, 0), attempt: 1 })
      .thenThrows('ATTEMPT_OUT_OF_ORDER');
    given(runningWithCall())
      .when({ type: 'StartToolCall', generation: 1, callId: call(1, 5), attempt: 1 })
      .thenThrows('CALL_NOT_FOUND');
  });

  it('never starts a call that has a result or an unknown outcome', () => {
    const unknown: TurnEvent = {
      type: 'ToolCallOutcomeUnknown',
      data: { callId: call(1, 0), reason: 'started_without_result_not_idempotent' },
    };
    const start = { type: 'StartToolCall' as const, generation: 1, callId: call(1, 0), attempt: 2 };
    given([...runningWithCall(), callStarted(call(1, 0)), callCompleted(call(1, 0))])
      .when(start)
      .thenThrows('CALL_ALREADY_COMPLETED');
    given([...runningWithCall(), callStarted(call(1, 0)), unknown])
      .when(start)
      .thenThrows('CALL_OUTCOME_UNKNOWN');
  });

  it('records an unknown outcome only for a started call, once', () => {
    const record = {
      type: 'RecordToolOutcomeUnknown' as const,
      generation: 1,
      callId: call(1, 0),
      reason: 'started_without_result_not_idempotent' as const,
    };
    const unknown: TurnEvent = { type: 'ToolCallOutcomeUnknown', data: { callId: call(1, 0), reason: record.reason } };
    given(runningWithCall()).when(record).thenThrows('CALL_NOT_STARTED');
    given([...runningWithCall(), callStarted(call(1, 0))])
      .when(record)
      .then([unknown]);
    given([...runningWithCall(), callStarted(call(1, 0)), unknown])
      .when(record)
      .then([]);
  });
});

describe('turn: a duplicate tool completion writes nothing', () => {
  const inFlight = [...runningWithCall(), callStarted(call(1, 0))];

  it('records the first completion, without a generation', () => {
    given(inFlight)
      .when({ type: 'CompleteToolCall', callId: call(1, 0), status: 'ok', result: 'ok' })
      .then([callCompleted(call(1, 0))]);
  });

  it('writes nothing for the second, even with another result', () => {
    given([...inFlight, callCompleted(call(1, 0))])
      .when({ type: 'CompleteToolCall', callId: call(1, 0), status: 'ok', result: 'different' })
      .then([]);
  });

  it('records a completion that arrives after the turn was cancelled, and the turn stays cancelled', () => {
    given([...inFlight, cancelled])
      .when({ type: 'CompleteToolCall', callId: call(1, 0), status: 'ok', result: 'ok' })
      .then([callCompleted(call(1, 0))]);
    const state = fold(turnDecider, [...inFlight, cancelled, callCompleted(call(1, 0))]);
    expect(state.status).toBe('cancelled');
    expect(toolCall(state, call(1, 0))).toMatchObject({
      status: 'completed',
      completedAfterClose: true,
    });
  });

  it('refuses a completion of a call never started, and an error result without its error', () => {
    given(runningWithCall())
      .when({ type: 'CompleteToolCall', callId: call(1, 0), status: 'ok' })
      .thenThrows('CALL_NOT_STARTED');
    given(inFlight)
      .when({ type: 'CompleteToolCall', callId: call(1, 0), status: 'error' })
      .thenThrows('INVALID_COMMAND');
  });
});

describe('declining a call (the person rejected it at its checkpoint)', () => {
  it('records an error result without ever starting the call', () => {
    const { given, intended, generation } = declineFixture();
    given(intended)
      .when({ type: 'DeclineToolCall', generation, callId: declineCallId, message: 'declined' })
      .then([
        {
          type: 'ToolCallCompleted',
          data: {
            callId: declineCallId,
            status: 'error',
            error: { code: 'CALL_DECLINED', message: 'declined', retriable: false },
          },
        },
      ]);
  });

  it('refuses to decline a call that already started', () => {
    const { given, intended, started, generation } = declineFixture();
    given([...intended, started])
      .when({ type: 'DeclineToolCall', generation, callId: declineCallId, message: 'x' })
      .thenThrows('CALL_ALREADY_STARTED');
  });

  it('refuses a stale generation', () => {
    const { given, intended, generation } = declineFixture();
    given(intended)
      .when({ type: 'DeclineToolCall', generation: generation + 1, callId: declineCallId, message: 'x' })
      .thenThrows('STALE_GENERATION');
  });
});

const declineCallId = call(1, 0);
function declineFixture() {
  return {
    given,
    intended: runningWithCall('notes.delete'),
    started: callStarted(declineCallId, 'notes.delete'),
    generation: 1,
  };
}
