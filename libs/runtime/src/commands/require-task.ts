import type { AggregateStream } from '@lomo/command-handling';
import { DomainError, TaskErrors, type TaskEvent, type TaskState } from '@lomo/domain';

type TaskStream = AggregateStream<TaskEvent, TaskState>;

/** The workspace of an existing task's stream; TASK_NOT_FOUND when the stream holds no task. */
export function taskWorkspace(stream: TaskStream, taskId: string): string {
  if (stream.state.status === 'none' || stream.workspaceId === undefined)
    throw new DomainError(TaskErrors.TASK_NOT_FOUND, `No task ${taskId}`);
  return stream.workspaceId;
}

/** A guard for handleCommand: refuses before anything is decided when the task does not exist. */
export const requireTask =
  (taskId: string) =>
  (stream: TaskStream): void => {
    taskWorkspace(stream, taskId);
  };

/** As requireTask, and TASK_NOT_FOUND for a task of another workspace alike (no existence leak). */
export const requireTaskIn =
  (taskId: string, workspaceId: string) =>
  (stream: TaskStream): void => {
    if (taskWorkspace(stream, taskId) !== workspaceId)
      throw new DomainError(TaskErrors.TASK_NOT_FOUND, `No task ${taskId}`);
  };
