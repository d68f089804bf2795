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

function withCall(turn: TurnDocument, callId: string, change: (call: TurnToolCall) => TurnToolCall): TurnDocument {
  const call = turn.calls[callId];
  return call === undefined ? turn : { ...turn, calls: { ...turn.calls, [callId]: change(call) } };
}

function committed(turn: TurnDocument, event: KnownEventOf<'ModelStepCommitted'>): TurnDocument {
  const { step, reply, toolCallIntents, consumedItemIds, usage, finishReason } = event.data;
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
  };
  return { ...turn, steps: [...turn.steps, entry], calls };
}

/** Mirrors the turn decider's fold; an ended turn still records late tool results. */
export function evolveTurnDocument(current: TurnDocument, event: KnownEvent): TurnDocument {
  const at = event.metadata.occurredAt;
  const turn = { ...current, lastActivityAt: at };
  switch (event.type) {
    case 'TurnStarted':
      return { ...turn, taskId: event.data.taskId, reason: event.data.reason, status: 'queued', startedAt: at };
    case 'TurnLeased':
      return {
        ...turn,
        status: turn.status === 'queued' ? 'running' : turn.status,
        generation: event.data.generation,
        lease: { ...event.data },
      };
    case 'TurnLeaseRenewed':
      return { ...turn, lease: { ...event.data } };
    case 'ModelStepCommitted':
      return committed(turn, event);
    case 'ToolCallStarted':
      return withCall(turn, event.data.callId, (c) => ({ ...c, status: 'started', attempts: event.data.attempt }));
    case 'ToolCallCompleted': {
      const { status, result, resultRef, error } = event.data;
      const late = isEnded(turn);
      return withCall(turn, event.data.callId, (c) => ({
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
      return withCall(turn, event.data.callId, (c) => ({ ...c, status: 'unknown', unknownReason: event.data.reason }));
    case 'TurnWaiting':
      return { ...turn, status: 'waiting', waitingOn: event.data.on, lease: null };
    case 'TurnResumed':
      return { ...turn, status: 'queued', waitingOn: null };
    case 'TurnCompleted':
      return {
        ...turn,
        status: 'completed',
        summary: event.data.summary ?? null,
        lease: null,
        waitingOn: null,
        endedAt: at,
      };
    case 'TurnFailed':
      return { ...turn, status: 'failed', error: event.data.error, lease: null, waitingOn: null, endedAt: at };
    case 'TurnCancelled':
      return {
        ...turn,
        status: 'cancelled',
        cancelled: { by: event.data.by, reason: event.data.reason },
        lease: null,
        waitingOn: null,
        endedAt: at,
      };
    default:
      return turn;
  }
}
