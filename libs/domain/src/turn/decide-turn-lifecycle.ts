import { DomainError } from '../decider';
import type {
  CancelTurn,
  CompleteTurn,
  CompleteWaitingTurn,
  FailTurn,
  ResumeTurn,
  StartTurn,
  WaitTurn,
} from './turn-commands';
import { TurnErrors } from './turn-errors';
import type { TurnEvent } from './turn-events';
import { existingTurn, fenced, openTurn, running } from './turn-guards';
import { allCallsSettled, toolCall } from './turn-queries';
import type { TurnState } from './turn-state';

/** One turn per stream: starting it again (a retry after a crash) is a no-op. */
export function startTurn(command: StartTurn, state: TurnState): TurnEvent[] {
  if (state.status !== 'none') {
    if (state.taskId === command.taskId) return [];
    throw new DomainError(TurnErrors.INVALID_COMMAND, `Turn ${state.turnId} belongs to task ${state.taskId}`);
  }
  return [{ type: 'TurnStarted', data: { turnId: command.turnId, taskId: command.taskId, reason: command.reason } }];
}

/** The turn releases its worker while it waits on jobs, async calls or a checkpoint. */
export function waitTurn(command: WaitTurn, state: TurnState): TurnEvent[] {
  const turn = running(fenced(state, command.generation));
  if (command.on.kind === 'calls') {
    const unknown = command.on.callIds.find((id) => !toolCall(turn, id));
    if (unknown !== undefined)
      throw new DomainError(TurnErrors.CALL_NOT_FOUND, `Turn ${turn.turnId} committed no call ${unknown}`);
  }
  return [{ type: 'TurnWaiting', data: { on: command.on } }];
}

/** Wake-ups are at least once: resuming a turn that is not waiting is a no-op. */
export function resumeTurn(command: ResumeTurn, state: TurnState): TurnEvent[] {
  const turn = openTurn(state);
  if (turn.status !== 'waiting') return [];
  return [{ type: 'TurnResumed', data: { reason: command.reason } }];
}

export function completeTurn(command: CompleteTurn, state: TurnState): TurnEvent[] {
  const turn = running(fenced(state, command.generation));
  if (command.steps !== turn.steps.length)
    throw new DomainError(
      TurnErrors.STEP_COUNT_MISMATCH,
      `Turn ${turn.turnId} committed ${turn.steps.length} steps, not ${command.steps}`,
    );
  if (!allCallsSettled(turn))
    throw new DomainError(TurnErrors.CALLS_PENDING, `Turn ${turn.turnId} has calls without a result`);
  const data = { steps: command.steps, ...(command.summary !== undefined ? { summary: command.summary } : {}) };
  return [{ type: 'TurnCompleted', data }];
}

/** Only a waiting turn with nothing left to wait for; a completed one is a repeat, a no-op. */
export function completeWaitingTurn(command: CompleteWaitingTurn, state: TurnState): TurnEvent[] {
  const turn = existingTurn(state);
  if (turn.status === 'completed') return [];
  if (turn.status !== 'waiting')
    throw new DomainError(TurnErrors.INVALID_COMMAND, `Turn ${turn.turnId} is ${turn.status}, not waiting`);
  if (!allCallsSettled(turn))
    throw new DomainError(TurnErrors.CALLS_PENDING, `Turn ${turn.turnId} has calls without a result`);
  const data = { steps: turn.steps.length, ...(command.summary !== undefined ? { summary: command.summary } : {}) };
  return [{ type: 'TurnCompleted', data }];
}

export function failTurn(command: FailTurn, state: TurnState): TurnEvent[] {
  if (command.generation !== undefined) fenced(state, command.generation);
  openTurn(state);
  return [{ type: 'TurnFailed', data: { error: command.error } }];
}

/** From any status but completed or failed; cancelling twice (stop retried) is a no-op. */
export function cancelTurn(command: CancelTurn, state: TurnState): TurnEvent[] {
  const turn = existingTurn(state);
  if (turn.status === 'cancelled') return [];
  openTurn(turn);
  return [{ type: 'TurnCancelled', data: { by: command.by, reason: command.reason } }];
}
