import { handleCommand, metadataOf } from '@lomo/command-handling';
import { streams } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type ResolveCheckpoint } from '@lomo/domain';
import { publishWakeUp } from '../wakeups/publish-wake-up';
import type { CommandDeps, TaskCommandResult } from './command-deps';
import { requireTask, taskWorkspace } from './require-task';

export type ResolveCheckpointRequest = Omit<ResolveCheckpoint, 'type'> & { taskId: string };

/**
 * The person's decision on a checkpoint, recorded with the person as actor (an approval is an
 * event, never a claim in a message), then the task is woken so the waiting turn resumes.
 */
export async function resolveCheckpoint(
  deps: CommandDeps,
  request: ResolveCheckpointRequest,
): Promise<TaskCommandResult> {
  const { taskId, ...resolution } = request;
  const result = await handleCommand(
    deps.store,
    streams.task(taskId),
    taskDecider,
    { type: 'ResolveCheckpoint', ...resolution },
    {
      eventTypes: taskEventTypes,
      ids: deps.ids,
      guard: requireTask(taskId),
      metadata: (stream) =>
        metadataOf({
          workspaceId: taskWorkspace(stream, taskId),
          actor: { kind: 'user', userId: resolution.resolvedBy },
          fallbackCorrelationId: taskId,
        }),
    },
  );
  const workspaceId = result.workspaceId;
  const turnId = result.state.status === 'none' ? undefined : result.state.checkpoints[resolution.checkpointId]?.turnId;
  if (workspaceId !== undefined) {
    await publishWakeUp(deps.bus, {
      kind: 'wake',
      workspaceId,
      taskId,
      ...(turnId !== undefined ? { turnId } : {}),
      reason: 'approval',
    }).catch((error: unknown) =>
      deps.logger.warn(
        { taskId, error: error instanceof Error ? error.message : String(error) },
        'wake after a resolved checkpoint not published; the watchdog finds the waiting turn',
      ),
    );
  }
  return { changed: result.changed, writes: result.writes };
}
