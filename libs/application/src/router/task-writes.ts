import { AggregateStream, handleCommand, type CommandResult } from '@lomo/command-handling';
import { deterministicUuid, streams, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type TaskEvent, type TaskState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import { goalFrom, type UserMessage } from './routing-decision';

export interface TaskWriteDeps {
  store: EventStore;
  ids: IdGenerator;
}

const options = (deps: TaskWriteDeps, metadata: WriteMetadata, eventId: () => string) => ({
  eventTypes: taskEventTypes,
  metadata,
  ids: deps.ids,
  eventIdFor: eventId,
});

/**
 * Creates the task a message starts. The first append to a new stream expects "no stream", so of
 * two routers racing only one creates it; the other re-reads and the decider finds nothing to do.
 * The task speaks the message's language: the agent answers in the person's own words.
 */
export function createTaskFromMessage(
  deps: TaskWriteDeps,
  taskId: string,
  message: UserMessage,
  metadata: WriteMetadata,
): Promise<CommandResult<TaskEvent, TaskState>> {
  const command = {
    type: 'CreateTask' as const,
    taskId,
    kind: 'persistent' as const,
    goal: goalFrom(message.text),
    language: message.language,
    originMessageId: message.messageId,
  };
  return handleCommand(
    deps.store,
    streams.task(taskId),
    taskDecider,
    command,
    options(deps, metadata, () => deterministicUuid('lomo.task-created', taskId)),
  );
}

/** Delivers a message to a task's inbox; the item id is the message id, so a repeat writes nothing. */
export function deliverToInbox(
  deps: TaskWriteDeps,
  taskId: string,
  message: UserMessage,
  metadata: WriteMetadata,
): Promise<CommandResult<TaskEvent, TaskState>> {
  const command = {
    type: 'DeliverMessage' as const,
    itemId: message.messageId,
    text: message.text,
    language: message.language,
  };
  return handleCommand(
    deps.store,
    streams.task(taskId),
    taskDecider,
    command,
    options(deps, metadata, () => deterministicUuid('lomo.inbox-delivery', taskId, message.messageId)),
  );
}

/**
 * The target task's current state, for the routing decision. An absent stream, or a task of
 * another workspace (the tenant boundary), folds to 'none': to the sender it does not exist.
 */
export async function readTask(store: EventStore, taskId: string, workspaceId: string): Promise<TaskState> {
  const task = await AggregateStream.read(store, streams.task(taskId), taskDecider, taskEventTypes);
  return task.workspaceId === undefined || task.workspaceId === workspaceId ? task.state : taskDecider.initialState();
}
