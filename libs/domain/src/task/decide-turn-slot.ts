import { DomainError } from '../decider';
import type { CloseTurn, OpenTurn, RecordContinuation } from './task-commands';
import { TaskErrors } from './task-errors';
import type { TaskEvent } from './task-events';
import { existing, invalid, runnable } from './task-guards';
import type { TaskState } from './task-state';

/**
 * The task stream holds its one active turn: TurnOpened is decided against the state read at an
 * expected revision, so two workers racing to open a turn cannot both succeed. Reopening the turn
 * that is already active is a no-op (a crash between TurnOpened and TurnStarted is repaired by
 * retrying); any other turn is refused while one is active.
 */
export function openTurn(command: OpenTurn, state: TaskState): TaskEvent[] {
  const task = runnable(state);
  if (task.activeTurnId === command.turnId) return [];
  if (task.activeTurnId !== null)
    throw new DomainError(
      TaskErrors.TURN_ALREADY_ACTIVE,
      `Task ${task.taskId} already has active turn ${task.activeTurnId}`,
    );
  if (task.lastClosedTurn?.turnId === command.turnId)
    throw new DomainError(TaskErrors.TURN_NOT_ACTIVE, `Turn ${command.turnId} was closed already`);
  return [{ type: 'TurnOpened', data: { turnId: command.turnId, reason: command.reason } }];
}

/** Closing is allowed in any status (a paused task's turn ends too); repeating it is a no-op. */
export function closeTurn(command: CloseTurn, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (task.activeTurnId !== command.turnId) {
    if (task.lastClosedTurn?.turnId === command.turnId) return [];
    throw new DomainError(TaskErrors.TURN_NOT_ACTIVE, `Turn ${command.turnId} is not active on task ${task.taskId}`);
  }
  return [{ type: 'TurnClosed', data: { turnId: command.turnId, outcome: command.outcome } }];
}

/**
 * Recorded once per closed turn, right after it closed: a repeat (another worker or the watchdog
 * closing the same turn) is a no-op, and a decision for any turn but the last closed one is refused.
 */
export function recordContinuation(command: RecordContinuation, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (task.continuation?.turnId === command.turnId) return [];
  if (task.lastClosedTurn?.turnId !== command.turnId || task.activeTurnId !== null)
    invalid(`A continuation is decided for the turn that just closed, not ${command.turnId}`);
  const { turnId, decision, reason, progress, autoTurns, turnsWithoutProgress, itemsDone } = command;
  return [
    {
      type: 'ContinuationDecided',
      data: { turnId, decision, reason, progress: [...progress], autoTurns, turnsWithoutProgress, itemsDone },
    },
  ];
}
