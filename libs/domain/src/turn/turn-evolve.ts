import { assertNever } from '../decider';
import type { TurnEvent } from './turn-events';
import { callPosition, isTurnTerminal } from './turn-queries';
import type { ExistingTurn, LiveTurn, ToolCall, TurnBase, TurnState } from './turn-state';

function withCall<T extends ExistingTurn>(turn: T, callId: string, change: (call: ToolCall) => ToolCall): T {
  const at = callPosition(callId);
  const step = at ? turn.steps[at.step - 1] : undefined;
  const call = at ? step?.calls[at.index] : undefined;
  if (!at || !step || !call || call.callId !== callId) return turn;
  const calls = step.calls.map((c, i) => (i === at.index ? change(c) : c));
  const steps = turn.steps.map((s, i) => (i === at.step - 1 ? { ...s, calls } : s));
  return { ...turn, steps };
}

/** The fields every status keeps, for building the next status's variant. */
const base = ({ turnId, taskId, reason, generation, steps }: TurnBase): TurnBase => ({
  turnId,
  taskId,
  reason,
  generation,
  steps,
});

/** Folds one turn event. A terminal turn only records late tool results; its status stays. */
export function evolveTurn(state: TurnState, event: TurnEvent): TurnState {
  if (event.type === 'TurnStarted') {
    if (state.status !== 'none') return state;
    return { ...event.data, status: 'queued', generation: 0, lease: null, steps: [] };
  }
  if (state.status === 'none') return state;
  return evolveExisting(state, event);
}

function evolveExisting(turn: ExistingTurn, event: Exclude<TurnEvent, { type: 'TurnStarted' }>): ExistingTurn {
  switch (event.type) {
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
        context: event.data.context ?? null,
        calls,
      };
      return { ...turn, steps: [...turn.steps, committed] };
    }
    case 'ToolCallStarted':
      return withCall(turn, event.data.callId, (c) => ({ ...c, status: 'started', attempts: event.data.attempt }));
    case 'ToolCallCompleted': {
      const { status, result, resultRef, error } = event.data;
      const late = isTurnTerminal(turn);
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
    default:
      return isTurnTerminal(turn) ? turn : evolveLive(turn, event);
  }
}

/**
 * Status changes, from the statuses the decider moves out of (decide-lease.ts,
 * decide-turn-lifecycle.ts). An event that could not have been decided in the current status
 * leaves the turn as it is.
 */
function evolveLive(
  turn: LiveTurn,
  event: Exclude<
    TurnEvent,
    { type: 'TurnStarted' | 'ModelStepCommitted' | 'ToolCallStarted' | 'ToolCallCompleted' | 'ToolCallOutcomeUnknown' }
  >,
): ExistingTurn {
  switch (event.type) {
    case 'TurnLeased':
      // A waiting turn is resumed (queued) before it is leased again.
      if (turn.status === 'waiting') return turn;
      return { ...base(turn), status: 'running', generation: event.data.generation, lease: { ...event.data } };
    case 'TurnLeaseRenewed':
      return turn.status === 'running' ? { ...turn, lease: { ...event.data } } : turn;
    case 'TurnWaiting':
      // The worker is released while the turn waits; resuming takes a new lease (and generation).
      return { ...base(turn), status: 'waiting', waitingOn: event.data.on, lease: null };
    case 'TurnResumed':
      return turn.status === 'waiting' ? { ...base(turn), status: 'queued', lease: null } : turn;
    case 'TurnCompleted':
      return { ...base(turn), status: 'completed', summary: event.data.summary ?? null, lease: null };
    case 'TurnFailed':
      return { ...base(turn), status: 'failed', error: event.data.error, lease: null };
    case 'TurnCancelled':
      return { ...base(turn), status: 'cancelled', cancelledBy: event.data, lease: null };
    default:
      return assertNever(event, 'turn event');
  }
}
