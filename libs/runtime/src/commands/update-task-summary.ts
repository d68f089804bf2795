import { handleCommand, metadataOf, type AggregateStream } from '@lomo/command-handling';
import { streams, type Actor } from '@lomo/contracts';
import { DomainError, TaskErrors, taskDecider, taskEventTypes, type TaskEvent, type TaskState } from '@lomo/domain';
import { runtimeActor } from '../events/new-events';
import type { CommandDeps, TaskCommandResult } from './command-deps';

export interface UpdateTaskSummaryRequest {
  workspaceId: string;
  taskId: string;
  summary: string;
  turnId?: string;
  /** The runtime unless said otherwise. */
  by?: Actor;
}

/** TASK_NOT_FOUND for an absent task and for one of another workspace alike. */
const inWorkspace =
  (taskId: string, workspaceId: string) =>
  (stream: AggregateStream<TaskEvent, TaskState>): void => {
    if (stream.state.status === 'none' || stream.workspaceId !== workspaceId)
      throw new DomainError(TaskErrors.TASK_NOT_FOUND, `No task ${taskId}`);
  };

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
      guard: inWorkspace(request.taskId, request.workspaceId),
      metadata: metadataOf({
        workspaceId: request.workspaceId,
        actor: by,
        fallbackCorrelationId: request.turnId ?? request.taskId,
      }),
    },
  ).then((result) => ({ changed: result.changed, writes: result.writes }));
}
