import { DomainError } from '../decider';
import type { CompleteToolCall, DeclineToolCall, RecordToolOutcomeUnknown, StartToolCall } from './turn-commands';
import { TurnErrors } from './turn-errors';
import { toolCall } from './turn-queries';
import type { TurnEvent } from './turn-events';
import { existingTurn, fenced, invalid, running } from './turn-guards';
import type { ExistingTurn, ToolCall, TurnState } from './turn-state';

function callOf(turn: ExistingTurn, callId: string): ToolCall {
  const call = toolCall(turn, callId);
  if (!call) throw new DomainError(TurnErrors.CALL_NOT_FOUND, `Turn ${turn.turnId} committed no call ${callId}`);
  return call;
}

/**
 * Records that a call begins; its idempotency key is the call id. A started call without a
 * result may be started again (attempt + 1) only by the caller's choice: the runtime does so for
 * idempotent tools and records an unknown outcome for the others.
 */
export function startToolCall(command: StartToolCall, state: TurnState): TurnEvent[] {
  const turn = running(fenced(state, command.generation));
  const call = callOf(turn, command.callId);
  if (call.status === 'completed')
    throw new DomainError(TurnErrors.CALL_ALREADY_COMPLETED, `Call ${call.callId} has its result`);
  if (call.status === 'unknown')
    throw new DomainError(TurnErrors.CALL_OUTCOME_UNKNOWN, `Call ${call.callId} has an unknown outcome`);
  if (command.attempt !== call.attempts + 1)
    throw new DomainError(
      TurnErrors.ATTEMPT_OUT_OF_ORDER,
      `Call ${call.callId} starts attempt ${call.attempts + 1} next, not ${command.attempt}`,
    );
  return [
    {
      type: 'ToolCallStarted',
      data: { callId: call.callId, tool: call.tool, idempotencyKey: call.callId, attempt: command.attempt },
    },
  ];
}

/**
 * A result is recorded once. It needs no generation (an async tool or the generation service
 * may finish the work), and it is recorded even on a terminal turn, whose status it leaves alone:
 * the ledger must know the effect happened. A result for a call whose outcome was recorded as
 * unknown is recorded too: it tells the truth late rather than never.
 */
export function completeToolCall(command: CompleteToolCall, state: TurnState): TurnEvent[] {
  const turn = existingTurn(state);
  const call = callOf(turn, command.callId);
  if (call.status === 'completed') return [];
  if (call.status === 'intended')
    throw new DomainError(TurnErrors.CALL_NOT_STARTED, `Call ${call.callId} was never started`);
  const { callId, status, result, resultRef, error } = command;
  if ((status === 'error') !== (error !== undefined)) invalid('An error result carries its error, and only it');
  const data = {
    callId,
    status,
    ...(result !== undefined ? { result } : {}),
    ...(resultRef !== undefined ? { resultRef } : {}),
    ...(error !== undefined ? { error } : {}),
  };
  return [{ type: 'ToolCallCompleted', data }];
}

export function recordToolOutcomeUnknown(command: RecordToolOutcomeUnknown, state: TurnState): TurnEvent[] {
  const turn = running(fenced(state, command.generation));
  const call = callOf(turn, command.callId);
  if (call.status === 'unknown') return [];
  if (call.status === 'completed')
    throw new DomainError(TurnErrors.CALL_ALREADY_COMPLETED, `Call ${call.callId} has its result`);
  if (call.status === 'intended')
    throw new DomainError(TurnErrors.CALL_NOT_STARTED, `Call ${call.callId} was never started`);
  return [{ type: 'ToolCallOutcomeUnknown', data: { callId: call.callId, reason: command.reason } }];
}

/** Error code of a call the person declined at its approval checkpoint. */
export const CALL_DECLINED = 'CALL_DECLINED';

/**
 * A declined call never runs, so it is never started: its ledger entry goes straight from
 * intended to an error result the model reads at the next step.
 */
export function declineToolCall(command: DeclineToolCall, state: TurnState): TurnEvent[] {
  const turn = running(fenced(state, command.generation));
  const call = callOf(turn, command.callId);
  if (call.status === 'completed') return [];
  if (call.status !== 'intended')
    throw new DomainError(
      TurnErrors.CALL_ALREADY_STARTED,
      `Call ${call.callId} was started; it can no longer be declined`,
    );
  return [
    {
      type: 'ToolCallCompleted',
      data: {
        callId: call.callId,
        status: 'error',
        error: { code: command.code ?? CALL_DECLINED, message: command.message, retriable: false },
      },
    },
  ];
}
