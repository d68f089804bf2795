import { AggregateStream } from '@lomo/command-handling';
import { streams } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type TaskState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

/**
 * The target task's current state, for the routing decision. An absent stream, or a task of
 * another workspace (the tenant boundary), folds to 'none': to the sender it does not exist.
 */
export async function readTask(store: EventStore, taskId: string, workspaceId: string): Promise<TaskState> {
  const task = await AggregateStream.read(store, streams.task(taskId), taskDecider, taskEventTypes);
  return task.workspaceId === undefined || task.workspaceId === workspaceId ? task.state : taskDecider.initialState();
}
