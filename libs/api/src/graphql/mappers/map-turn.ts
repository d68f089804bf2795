import type { TurnDocument, TurnStep as TurnStepDocument, TurnToolCall } from '@lomo/read-models';
import type { ToolCall, Turn, TurnStep } from '../types/turn.types';
import { mapStepContext } from './map-step-context';

const json = (value: unknown) => JSON.stringify(value);

export function mapTurn(d: TurnDocument): Turn {
  return {
    id: d._id,
    taskId: d.taskId,
    reason: d.reason,
    status: d.status,
    generation: d.generation,
    lease: d.lease,
    waitingOnJson: d.waitingOn === null ? null : json(d.waitingOn),
    summary: d.summary,
    error: d.error,
    cancelReason: d.cancelled?.reason ?? null,
    startedAt: d.startedAt,
    lastActivityAt: d.lastActivityAt,
    endedAt: d.endedAt,
  };
}

/** A step of `turn`, which carries the turn's id and workspace for the step's own field resolvers. */
export function mapTurnStep(turnId: string, workspaceId: string, s: TurnStepDocument): TurnStep {
  return {
    turnId,
    workspaceId,
    step: s.step,
    reply: s.reply,
    callIds: [...s.callIds],
    consumedItemIds: [...s.consumedItemIds],
    usage: { ...s.usage },
    finishReason: s.finishReason,
    committedAt: s.committedAt,
    // A document of turns v1 (served while v2 is rebuilt) has neither.
    context: s.context == null ? null : mapStepContext(s.context),
    promptRef: s.promptRef ?? null,
  };
}

export function mapToolCall(c: TurnToolCall): ToolCall {
  return {
    callId: c.callId,
    tool: c.tool,
    step: c.step,
    index: c.index,
    argumentsJson: json(c.arguments),
    status: c.status,
    attempts: c.attempts,
    outcome: c.outcome,
    resultJson: c.result === null ? null : json(c.result),
    resultRef: c.resultRef,
    error: c.error,
    unknownReason: c.unknownReason,
    completedAfterClose: c.completedAfterClose,
  };
}

/** The ledger in call order: step, then index within the step. */
export function ledgerOf(d: TurnDocument): TurnToolCall[] {
  return Object.values(d.calls).sort((a, b) => a.step - b.step || a.index - b.index);
}
