import { handleCommand, metadataOf } from '@lomo/command-handling';
import { streams, type Actor } from '@lomo/contracts';
import { taskDecider, taskEventTypes } from '@lomo/domain';
import { runtimeActor } from '../events/new-events';
import type { CommandDeps, TaskCommandResult } from './command-deps';
import { requireTaskIn } from './require-task';

export interface UpdateTaskSummaryRequest {
  workspaceId: string;
  taskId: string;
  summary: string;
  turnId?: string;
  /** The runtime unless said otherwise. */
  by?: Actor;
}

/** Appends TaskSummaryUpdated through the one command layer; the same summary again writes nothing. */
export function updateTaskSummary(
  deps: Pick<CommandDeps, 'store' | 'ids'>,
  request: UpdateTaskSummaryRequest,
): Promise<TaskCommandResult> {
  const by = request.by ?? runtimeActor;
  return handleCommand(
    deps.store,
    streams.task(request.taskId),
    taskDecider,
    {
      type: 'UpdateTaskSummary',
      summary: request.summary,
      ...(request.turnId !== undefined ? { turnId: request.turnId } : {}),
      by,
    },
    {
      eventTypes: taskEventTypes,
      ids: deps.ids,
      guard: requireTaskIn(request.taskId, request.workspaceId),
      metadata: metadataOf({
        workspaceId: request.workspaceId,
        actor: by,
        fallbackCorrelationId: request.turnId ?? request.taskId,
      }),
    },
  ).then((result) => ({ changed: result.changed, writes: result.writes }));
}
