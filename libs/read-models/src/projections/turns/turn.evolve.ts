import type { KnownEvent, KnownEventOf } from '../engine/known-event';
import type { TurnDocument, TurnToolCall } from './turn.document';

const isEnded = (turn: TurnDocument) =>
  turn.status === 'completed' || turn.status === 'failed' || turn.status === 'cancelled';

export function blankTurn(id: string, event: KnownEvent): TurnDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    taskId: null,
    reason: null,
    status: null,
    generation: 0,
    lease: null,
    steps: [],
    calls: {},
    waitingOn: null,
    summary: null,
    error: null,
    cancelled: null,
    startedAt: null,
    lastActivityAt: null,
    endedAt: null,
  };
}

/** The turn with one ledger entry changed (or none, for an unknown call id) and its activity time. */
function withCall(
  turn: TurnDocument,
  at: string,
  callId: string,
  change: (call: TurnToolCall) => TurnToolCall,
): TurnDocument {
  const call = turn.calls[callId];
  if (call === undefined) return { ...turn, lastActivityAt: at };
  return { ...turn, lastActivityAt: at, calls: { ...turn.calls, [callId]: change(call) } };
}

function committed(turn: TurnDocument, at: string, event: KnownEventOf<'ModelStepCommitted'>): TurnDocument {
  const { step, reply, toolCallIntents, consumedItemIds, usage, finishReason, promptRef, context } = event.data;
  const calls = { ...turn.calls };
  toolCallIntents.forEach((intent, index) => {
    calls[intent.callId] = {
      callId: intent.callId,
      tool: intent.tool,
      step,
      index,
      arguments: intent.arguments,
      status: 'intended',
      attempts: 0,
      outcome: null,
      result: null,
      resultRef: null,
      error: null,
      unknownReason: null,
      completedAfterClose: false,
    };
  });
  const entry = {
    step,
    reply,
    callIds: toolCallIntents.map((i) => i.callId),
    consumedItemIds: [...consumedItemIds],
    usage: {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cachedInputTokens: usage.cachedInputTokens ?? null,
    },
    finishReason,
    committedAt: event.metadata.occurredAt,
    promptRef,
    context: context ?? null,
  };
  return { ...turn, lastActivityAt: at, steps: [...turn.steps, entry], calls };
}

/**
 * Mirrors the turn decider's fold; an ended turn still records late tool results. One copy of
 * the document per event (a rebuild runs this for every turn event).
 */
export function evolveTurnDocument(turn: TurnDocument, event: KnownEvent): TurnDocument {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'TurnStarted':
      return {
        ...turn,
        lastActivityAt: at,
        taskId: event.data.taskId,
        reason: event.data.reason,
        status: 'queued',
        startedAt: at,
      };
    case 'TurnLeased':
      return {
        ...turn,
        lastActivityAt: at,
        status: turn.status === 'queued' ? 'running' : turn.status,
        generation: event.data.generation,
        lease: { ...event.data },
      };
    case 'TurnLeaseRenewed':
      return { ...turn, lastActivityAt: at, lease: { ...event.data } };
    case 'ModelStepCommitted':
      return committed(turn, at, event);
    case 'ToolCallStarted':
      return withCall(turn, at, event.data.callId, (c) => ({
        ...c,
        status: 'started',
        attempts: event.data.attempt,
      }));
    case 'ToolCallCompleted': {
      const { status, result, resultRef, error } = event.data;
      const late = isEnded(turn);
      return withCall(turn, at, event.data.callId, (c) => ({
        ...c,
        status: 'completed',
        outcome: status,
        result: result ?? null,
        resultRef: resultRef ?? null,
        error: error ?? null,
        completedAfterClose: late,
      }));
    }
    case 'ToolCallOutcomeUnknown':
      return withCall(turn, at, event.data.callId, (c) => ({
        ...c,
        status: 'unknown',
        unknownReason: event.data.reason,
      }));
    case 'TurnWaiting':
      return { ...turn, lastActivityAt: at, status: 'waiting', waitingOn: event.data.on, lease: null };
    case 'TurnResumed':
      return { ...turn, lastActivityAt: at, status: 'queued', waitingOn: null };
    case 'TurnCompleted':
      return {
        ...turn,
        lastActivityAt: at,
        status: 'completed',
        summary: event.data.summary ?? null,
        lease: null,
        waitingOn: null,
        endedAt: at,
      };
    case 'TurnFailed':
      return {
        ...turn,
        lastActivityAt: at,
        status: 'failed',
        error: event.data.error,
        lease: null,
        waitingOn: null,
        endedAt: at,
      };
    case 'TurnCancelled':
      return {
        ...turn,
        lastActivityAt: at,
        status: 'cancelled',
        cancelled: { by: event.data.by, reason: event.data.reason },
        lease: null,
        waitingOn: null,
        endedAt: at,
      };
    default:
      return { ...turn, lastActivityAt: at };
  }
}
