import { DomainError } from '../decider';
import { TaskErrors } from './task-errors';
import type { ExistingTask, OpenTask, RunnableTask, TaskState } from './task-state';

export function existing(state: TaskState): ExistingTask {
  if (state.status === 'none') throw new DomainError(TaskErrors.TASK_NOT_FOUND, 'The task does not exist');
  return state;
}

/** Refuses final tasks: a stopped task is never restarted, a completed or archived one is done. */
export function notFinal(state: TaskState): OpenTask {
  const task = existing(state);
  if (task.status === 'stopped') throw new DomainError(TaskErrors.TASK_STOPPED, `Task ${task.taskId} was stopped`);
  if (task.status === 'completed' || task.status === 'archived')
    throw new DomainError(TaskErrors.TASK_CLOSED, `Task ${task.taskId} is ${task.status}`);
  return task;
}

/** Active or waiting: the statuses in which a turn may run or claim. */
export function runnable(state: TaskState): RunnableTask {
  const task = notFinal(state);
  if (task.status === 'paused') throw new DomainError(TaskErrors.TASK_PAUSED, `Task ${task.taskId} is paused`);
  return task;
}

export function activeTurn(task: ExistingTask, turnId: string): void {
  if (task.activeTurnId !== turnId)
    throw new DomainError(
      TaskErrors.TURN_NOT_ACTIVE,
      `Turn ${turnId} is not the active turn of task ${task.taskId} (active: ${task.activeTurnId ?? 'none'})`,
    );
}

export function noActiveTurn(task: ExistingTask, doing: string): void {
  if (task.activeTurnId !== null)
    throw new DomainError(
      TaskErrors.TURN_STILL_ACTIVE,
      `Cannot ${doing} task ${task.taskId} while turn ${task.activeTurnId} is active`,
    );
}

export function invalid(message: string): never {
  throw new DomainError(TaskErrors.INVALID_COMMAND, message);
}
