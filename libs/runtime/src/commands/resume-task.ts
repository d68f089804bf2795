import { handleCommand, metadataOf } from '@lomo/command-handling';
import { streams, type Actor } from '@lomo/contracts';
import { taskDecider, taskEventTypes } from '@lomo/domain';
import { publishWakeUp } from '../wakeups/publish-wake-up';
import type { CommandDeps, TaskCommandResult } from './command-deps';
import { requireTask, taskWorkspace } from './require-task';

/** Resumes a paused task and wakes it, so messages released by the pause are handled now. */
export async function resumeTask(
  deps: CommandDeps,
  request: { taskId: string; by: Actor },
): Promise<TaskCommandResult> {
  const result = await handleCommand(
    deps.store,
    streams.task(request.taskId),
    taskDecider,
    { type: 'ResumeTask', by: request.by },
    {
      eventTypes: taskEventTypes,
      ids: deps.ids,
      guard: requireTask(request.taskId),
      metadata: (stream) =>
        metadataOf({
          workspaceId: taskWorkspace(stream, request.taskId),
          actor: request.by,
          fallbackCorrelationId: request.taskId,
        }),
    },
  );
  const workspaceId = result.workspaceId;
  if (workspaceId === undefined) return { changed: result.changed, writes: result.writes };
  await publishWakeUp(deps.bus, {
    kind: 'wake',
    workspaceId,
    taskId: request.taskId,
    reason: 'resume',
  }).catch((error: unknown) =>
    deps.logger.warn(
      { taskId: request.taskId, error: error instanceof Error ? error.message : String(error) },
      'wake after resume not published; the watchdog finds the inbox',
    ),
  );
  return { changed: result.changed, writes: result.writes };
}
