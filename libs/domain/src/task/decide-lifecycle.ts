import { DomainError } from '../decider';
import type {
  ArchiveTask,
  ChangeAutonomy,
  CompleteTask,
  CreateTask,
  PauseTask,
  ResumeTask,
  StopTask,
  UpgradeTask,
} from './task-commands';
import { TaskErrors } from './task-errors';
import type { TaskEvent } from './task-events';
import { existing, invalid, noActiveTurn, notFinal, runnable } from './task-guards';
import type { TaskState } from './task-state';

/** Creating the same task from the same message again is a no-op; anything else is a conflict. */
export function createTask(command: CreateTask, state: TaskState): TaskEvent[] {
  if (state.status !== 'none') {
    if (state.taskId === command.taskId && state.originMessageId === command.originMessageId) return [];
    throw new DomainError(TaskErrors.TASK_ALREADY_EXISTS, `Task ${state.taskId} exists`);
  }
  const { taskId, kind, goal, language, originMessageId } = command;
  return [{ type: 'TaskCreated', data: { taskId, kind, goal, language, originMessageId } }];
}

/** The runtime cancels the active turn when it sees the pause; the task keeps its inbox. */
export function pauseTask(command: PauseTask, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  if (task.status === 'paused') return [];
  const data = { by: command.by, ...(command.reason !== undefined ? { reason: command.reason } : {}) };
  return [{ type: 'TaskPaused', data }];
}

export function resumeTask(command: ResumeTask, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  if (task.status !== 'paused') return [];
  return [{ type: 'TaskResumed', data: { by: command.by } }];
}

/**
 * DESIGN.md §4: stopping cancels the active turn on its turn stream first, then appends
 * TaskStopped naming it, which also frees the task's turn slot. A stop that does not name the
 * active turn is refused, so a turn is never left running under a stopped task. Stopping twice
 * is a no-op.
 */
export function stopTask(command: StopTask, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (task.status === 'stopped') return [];
  notFinal(task);
  if (task.activeTurnId !== null && command.cancelledTurnId !== task.activeTurnId)
    throw new DomainError(
      TaskErrors.TURN_STILL_ACTIVE,
      `Cancel turn ${task.activeTurnId} before stopping task ${task.taskId}, and name it`,
    );
  const data = {
    by: command.by,
    ...(command.reason !== undefined ? { reason: command.reason } : {}),
    ...(command.cancelledTurnId !== undefined ? { cancelledTurnId: command.cancelledTurnId } : {}),
  };
  return [{ type: 'TaskStopped', data }];
}

export function completeTask(command: CompleteTask, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (task.status === 'completed') return [];
  runnable(task);
  noActiveTurn(task, 'complete');
  return [{ type: 'TaskCompleted', data: command.summary !== undefined ? { summary: command.summary } : {} }];
}

/** Any existing task may be archived once no turn runs; archived is final. */
export function archiveTask(command: ArchiveTask, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (task.status === 'archived') return [];
  noActiveTurn(task, 'archive');
  return [{ type: 'TaskArchived', data: { by: command.by } }];
}

export function changeAutonomy(command: ChangeAutonomy, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  if (task.autonomy === command.level) return [];
  return [{ type: 'AutonomyChanged', data: { level: command.level, by: command.by } }];
}

/**
 * Lightweight → persistent, keeping its history (the same stream). A persistent task is already
 * what was asked: a no-op, whatever its status. A final lightweight task is refused: nothing
 * would run it.
 */
export function upgradeTask(command: UpgradeTask, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (task.kind === 'persistent') return [];
  notFinal(task);
  if (!/\S/.test(command.reason) || command.reason.length > 2000) invalid('A reason is 1 to 2000 characters');
  return [
    {
      type: 'TaskUpgraded',
      data: { from: 'lightweight', to: 'persistent', reason: command.reason, by: command.by },
    },
  ];
}
