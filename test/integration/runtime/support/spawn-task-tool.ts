import { z } from 'zod';
import { ConcurrencyError, deterministicUuid, streams } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { defineTool, okResult, type ToolDefinition } from '@lomo/tools';

export const spawnedTaskIdFor = (callId: string) => deterministicUuid('lomo.test.spawn', callId);

/**
 * A tool that creates a task, as a delegating agent would. The new task's id derives from the call
 * id, so a repeated call (a retry, a stale worker) lands on the same stream and creates nothing new.
 */
export function spawnTaskTool(store: EventStore): ToolDefinition<{ goal: string }> {
  return defineTool({
    name: 'task.spawn',
    description: 'Start a separate task with the given goal.',
    domain: 'core',
    sideEffect: 'write',
    idempotent: true,
    input: z.strictObject({ goal: z.string().min(1).max(500) }),
    async run(input, context) {
      const taskId = spawnedTaskIdFor(context.callId);
      try {
        await store.append(
          streams.task(taskId),
          [
            {
              eventId: deterministicUuid('lomo.test.spawn-event', context.callId),
              type: 'TaskCreated',
              data: {
                taskId,
                kind: 'persistent',
                goal: input.goal,
                language: 'en',
                originMessageId: deterministicUuid('lomo.test.spawn-origin', context.callId),
              },
              metadata: {
                correlationId: context.turnId,
                causationId: null,
                workspaceId: context.workspaceId,
                actor: { kind: 'agent' },
              },
            },
          ],
          'no_stream',
        );
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
      }
      return okResult({ taskId });
    },
  });
}
