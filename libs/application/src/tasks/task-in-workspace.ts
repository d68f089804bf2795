import { AggregateStream, metadataOf } from '@lomo/command-handling';
import { streams, type Actor, type WriteMetadata } from '@lomo/contracts';
import {
  DomainError,
  TaskErrors,
  taskDecider,
  taskEventTypes,
  type ExistingTask,
  type TaskEvent,
  type TaskState,
} from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

type TaskStream = AggregateStream<TaskEvent, TaskState>;

/**
 * The tenant boundary for commands that name a task by id: an absent task and a task of another
 * workspace are the same TASK_NOT_FOUND (the API answers NOT_FOUND), so nothing reveals it exists.
 */
export const inWorkspace =
  (taskId: string, workspaceId: string) =>
  (stream: TaskStream): void => {
    if (stream.state.status === 'none' || stream.workspaceId !== workspaceId)
      throw new DomainError(TaskErrors.TASK_NOT_FOUND, `No task ${taskId}`);
  };

/** Reads a task of this workspace (TASK_NOT_FOUND otherwise). */
export async function readTaskIn(store: EventStore, taskId: string, workspaceId: string): Promise<ExistingTask> {
  const stream = await AggregateStream.read(store, streams.task(taskId), taskDecider, taskEventTypes);
  inWorkspace(taskId, workspaceId)(stream);
  return stream.state as ExistingTask;
}

export const userActor = (userId: string): Actor => ({ kind: 'user', userId });

export const writeMetadata = (workspaceId: string, actor: Actor, fallback: string): WriteMetadata =>
  metadataOf({ workspaceId, actor, fallbackCorrelationId: fallback });
