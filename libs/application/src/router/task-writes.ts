import { deterministicUuid, streams, type WriteMetadata } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type TaskEvent, type TaskState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import { handleCommand, type HandleCommandResult } from '../command-handling/handle-command';
import { goalFrom, type UserMessage } from './routing-decision';

const options = (eventIdFor: (event: TaskEvent) => string) => ({ eventTypes: taskEventTypes, eventIdFor });

/**
 * Creates the task a message starts. The first append to a new stream expects "no stream", so of
 * two routers racing only one creates it; the other re-reads and the decider finds nothing to do.
 * The task speaks the message's language: the agent answers in the person's own words.
 */
export function createTaskFromMessage(
  store: EventStore,
  taskId: string,
  message: UserMessage,
  metadata: WriteMetadata,
): Promise<HandleCommandResult<TaskEvent, TaskState>> {
  const command = {
    type: 'CreateTask' as const,
    taskId,
    kind: 'persistent' as const,
    goal: goalFrom(message.text),
    language: message.language,
    originMessageId: message.messageId,
  };
  return handleCommand(
    store,
    streams.task(taskId),
    taskDecider,
    command,
    metadata,
    options(() => deterministicUuid('lomo.task-created', taskId)),
  );
}

/** Delivers a message to a task's inbox; the item id is the message id, so a repeat writes nothing. */
export function deliverToInbox(
  store: EventStore,
  taskId: string,
  message: UserMessage,
  metadata: WriteMetadata,
): Promise<HandleCommandResult<TaskEvent, TaskState>> {
  const command = {
    type: 'DeliverMessage' as const,
    itemId: message.messageId,
    text: message.text,
    language: message.language,
  };
  return handleCommand(
    store,
    streams.task(taskId),
    taskDecider,
    command,
    metadata,
    options(() => deterministicUuid('lomo.inbox-delivery', taskId, message.messageId)),
  );
}

/**
 * The target task's current state, for the routing decision. An absent stream, or a task of
 * another workspace (the tenant boundary), folds to 'none': to the sender it does not exist.
 */
export async function readTask(store: EventStore, taskId: string, workspaceId: string): Promise<TaskState> {
  const known = new Set<string>(taskEventTypes);
  const stored = await store.readStream(streams.task(taskId));
  if (stored.length > 0 && stored[0].metadata.workspaceId !== workspaceId) return taskDecider.initialState();
  const events = stored.map(({ type, data }) => ({ type, data })).filter((e): e is TaskEvent => known.has(e.type));
  return events.reduce(taskDecider.evolve, taskDecider.initialState());
}
