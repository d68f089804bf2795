import { randomUUID } from 'node:crypto';
import { handleCommand } from '@lomo/command-handling';
import { streams } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type TaskCommand } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

/** Decides task commands on the task's stream and appends them (the task command handler's path). */
export async function decideOnTask(
  store: EventStore,
  workspaceId: string,
  taskId: string,
  commands: TaskCommand[],
): Promise<void> {
  await handleCommand(store, streams.task(taskId), taskDecider, () => commands, {
    eventTypes: taskEventTypes,
    metadata: {
      correlationId: `test-${taskId}`,
      causationId: null,
      workspaceId,
      actor: { kind: 'user', userId: 'u1' },
    },
    ids: { uuid: () => randomUUID() },
  });
}

/** A persistent task with a first message, as the router leaves it. */
export async function createTask(
  store: EventStore,
  workspaceId: string,
  goal = 'Storyboard for the ad',
): Promise<string> {
  const taskId = randomUUID();
  const itemId = randomUUID();
  await decideOnTask(store, workspaceId, taskId, [
    { type: 'CreateTask', taskId, kind: 'persistent', goal, language: 'en', originMessageId: itemId },
    { type: 'DeliverMessage', itemId, text: goal, language: 'en' },
  ]);
  return taskId;
}
