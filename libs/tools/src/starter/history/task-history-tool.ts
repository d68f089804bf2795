import { z } from 'zod';
import { streams, type EventEnvelope } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { okResult } from '../../tool-results';
import { defineTool, type ToolContext, type ToolDefinition } from '../../tool.port';
import { compactEvent } from './compact-event';

export type HistoryReader = Pick<EventStore, 'readStream'>;

/**
 * task.history: the task's recent events and the current turn's, oldest first. Reads backwards
 * with a bound so the cost does not grow with the task's age.
 */
export function taskHistoryTool(events: HistoryReader): ToolDefinition<{ limit: number }> {
  return defineTool({
    name: 'task.history',
    description: 'List the most recent events of this task and of the current turn, oldest first, in short form.',
    domain: 'core',
    sideEffect: 'read',
    idempotent: true,
    input: z.strictObject({
      limit: z.number().int().min(1).max(50).default(20).describe('How many recent events per stream'),
    }),
    async run(input, context) {
      const [task, turn] = await Promise.all([
        recent(events, streams.task(context.taskId), input.limit, context),
        recent(events, streams.turn(context.turnId), input.limit, context),
      ]);
      return okResult({ taskId: context.taskId, task, turn: { turnId: context.turnId, events: turn } });
    },
  });
}

async function recent(events: HistoryReader, streamId: string, limit: number, context: ToolContext) {
  const newestFirst = await events.readStream(streamId, { direction: 'backwards', maxCount: limit });
  return newestFirst
    .reverse()
    .filter((e) => inWorkspace(e, context))
    .map(compactEvent);
}

/** The workspace is the tenant boundary: a stream id from another workspace reads as empty. */
const inWorkspace = (event: EventEnvelope, context: ToolContext) => event.metadata.workspaceId === context.workspaceId;
