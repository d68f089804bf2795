import { assertNever } from '../decider';
import type { TurnEvent } from './turn-events';
import { callPosition } from './turn-queries';
import type { ExistingTurn, ToolCall, TurnState } from './turn-state';

const isTerminal = (turn: ExistingTurn) =>
  turn.status === 'completed' || turn.status === 'failed' || turn.status === 'cancelled';

function withCall(turn: ExistingTurn, callId: string, change: (call: ToolCall) => ToolCall): ExistingTurn {
  const at = callPosition(callId);
  const step = at ? turn.steps[at.step - 1] : undefined;
  const call = at ? step?.calls[at.index] : undefined;
  if (!at || !step || !call || call.callId !== callId) return turn;
  const calls = step.calls.map((c, i) => (i === at.index ? change(c) : c));
  const steps = turn.steps.map((s, i) => (i === at.step - 1 ? { ...s, calls } : s));
  return { ...turn, steps };
}

/** Folds one turn event. A terminal turn only records late tool results; its status stays. */
export function evolveTurn(state: TurnState, event: TurnEvent): TurnState {
  if (event.type === 'TurnStarted') {
    if (state.status !== 'none') return state;
    return {
      ...event.data,
      status: 'queued',
      generation: 0,
      lease: null,
      steps: [],
      waitingOn: null,
      summary: null,
      error: null,
      cancelledBy: null,
    };
  }
  if (state.status === 'none') return state;
  return evolveExisting(state, event);
}

function evolveExisting(turn: ExistingTurn, event: Exclude<TurnEvent, { type: 'TurnStarted' }>): ExistingTurn {
  switch (event.type) {
    case 'TurnLeased':
      return {
        ...turn,
        status: turn.status === 'queued' ? 'running' : turn.status,
        generation: event.data.generation,
        lease: { ...event.data },
      };
    case 'TurnLeaseRenewed':
      return { ...turn, lease: { ...event.data } };
    case 'ModelStepCommitted': {
      const { step, reply, toolCallIntents, consumedItemIds, usage, promptRef, finishReason } = event.data;
      const calls = toolCallIntents.map((intent, index): ToolCall => ({
        callId: intent.callId,
        tool: intent.tool,
        step,
        index,
        arguments: intent.arguments,
        status: 'intended',
        attempts: 0,
        outcome: null,
        completedAfterClose: false,
      }));
      const committed = {
        step,
        reply,
        callIds: toolCallIntents.map((i) => i.callId),
        consumedItemIds,
        usage,
        promptRef,
        finishReason,
        calls,
      };
      return { ...turn, steps: [...turn.steps, committed] };
    }
    case 'ToolCallStarted':
      return withCall(turn, event.data.callId, (c) => ({ ...c, status: 'started', attempts: event.data.attempt }));
    case 'ToolCallCompleted': {
      const { status, result, resultRef, error } = event.data;
      const late = isTerminal(turn);
      return withCall(turn, event.data.callId, (c) => ({
        ...c,
        status: 'completed',
        outcome: status,
        ...(result !== undefined ? { result } : {}),
        ...(resultRef !== undefined ? { resultRef } : {}),
        ...(error !== undefined ? { error } : {}),
        completedAfterClose: late,
      }));
    }
    case 'ToolCallOutcomeUnknown':
      return withCall(turn, event.data.callId, (c) => ({ ...c, status: 'unknown', unknownReason: event.data.reason }));
    case 'TurnWaiting':
      // The worker is released while the turn waits; resuming takes a new lease (and generation).
      return { ...turn, status: 'waiting', waitingOn: event.data.on, lease: null };
    case 'TurnResumed':
      return { ...turn, status: 'queued', waitingOn: null };
    case 'TurnCompleted':
      return { ...turn, status: 'completed', summary: event.data.summary ?? null, lease: null, waitingOn: null };
    case 'TurnFailed':
      return { ...turn, status: 'failed', error: event.data.error, lease: null, waitingOn: null };
    case 'TurnCancelled':
      return { ...turn, status: 'cancelled', cancelledBy: event.data, lease: null, waitingOn: null };
    default:
      return assertNever(event, 'turn event');
  }
}
