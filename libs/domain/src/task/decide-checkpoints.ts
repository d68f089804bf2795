import { DomainError } from '../decider';
import type { OpenCheckpoint, ResolveCheckpoint } from './task-commands';
import { TaskErrors } from './task-errors';
import type { TaskEvent } from './task-events';
import { activeTurn, invalid, notFinal, runnable } from './task-guards';
import type { Checkpoint, TaskState } from './task-state';

/** An approval is for one call of the turn that asks: `{turnId}:{step}:{index}`. */
const callOfTurn = (callId: string, turnId: string) => callId.startsWith(`${turnId}:`);

export function openCheckpoint(command: OpenCheckpoint, state: TaskState): TaskEvent[] {
  const task = runnable(state);
  const { checkpointId, turnId, kind, callId, question } = command;
  const known = task.checkpoints[checkpointId];
  if (known) {
    if (known.turnId === turnId && known.kind === kind && known.callId === (callId ?? null)) return [];
    throw new DomainError(TaskErrors.CHECKPOINT_CONFLICT, `Checkpoint ${checkpointId} exists with other content`);
  }
  activeTurn(task, turnId);
  if (kind === 'approval' && callId === undefined) invalid('An approval checkpoint names the call id it authorizes');
  if (callId !== undefined && !callOfTurn(callId, turnId))
    throw new DomainError(TaskErrors.CALL_ID_MISMATCH, `Call ${callId} does not belong to turn ${turnId}`);
  const data = { checkpointId, turnId, kind, question, ...(callId !== undefined ? { callId } : {}) };
  return [{ type: 'CheckpointOpened', data }];
}

const decisionsByKind: Record<Checkpoint['kind'], readonly string[]> = {
  approval: ['approve', 'reject'],
  question: ['answer'],
  review: ['approve', 'reject', 'answer'],
};

/**
 * The person's decision. An approval authorizes exactly the call id the checkpoint named, so the
 * resolution must repeat it: an approval of anything else is refused, never widened. Resolving
 * after a stop is refused: a stopped task is not woken by a late answer.
 */
export function resolveCheckpoint(command: ResolveCheckpoint, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  const checkpoint = task.checkpoints[command.checkpointId];
  if (!checkpoint) throw new DomainError(TaskErrors.CHECKPOINT_NOT_FOUND, `No checkpoint ${command.checkpointId}`);
  if (checkpoint.resolution !== null) {
    const same =
      checkpoint.resolution.decision === command.decision &&
      checkpoint.resolution.answer === (command.answer ?? null) &&
      checkpoint.resolution.resolvedBy === command.resolvedBy;
    if (same) return [];
    throw new DomainError(
      TaskErrors.CHECKPOINT_ALREADY_RESOLVED,
      `Checkpoint ${command.checkpointId} was resolved: ${checkpoint.resolution.decision}`,
    );
  }
  if (!decisionsByKind[checkpoint.kind].includes(command.decision))
    throw new DomainError(
      TaskErrors.INVALID_DECISION,
      `A ${checkpoint.kind} checkpoint cannot be resolved with ${command.decision}`,
    );
  if (command.decision === 'answer' && !command.answer) invalid('An answer carries its text');
  if ((checkpoint.kind === 'approval' || command.callId !== undefined) && command.callId !== checkpoint.callId)
    throw new DomainError(
      TaskErrors.CALL_ID_MISMATCH,
      `Checkpoint ${checkpoint.checkpointId} is about call ${checkpoint.callId}, not ${command.callId ?? '(none)'}`,
    );
  const { checkpointId, decision, callId, answer, resolvedBy } = command;
  const data = {
    checkpointId,
    decision,
    resolvedBy,
    ...(callId !== undefined ? { callId } : {}),
    ...(answer !== undefined ? { answer } : {}),
  };
  return [{ type: 'CheckpointResolved', data }];
}
