import { ConcurrencyError } from '@lomo/contracts';
import { DomainError, TaskErrors, taskDecider, type ResolveCheckpoint } from '@lomo/domain';
import { toNewEvents } from '../events/new-events';
import { TaskView } from '../streams/task-view';
import { publishWakeUp } from '../wakeups/publish-wake-up';
import { COMMAND_ATTEMPTS, type CommandDeps } from './command-deps';

export type ResolveCheckpointRequest = Omit<ResolveCheckpoint, 'type'> & { taskId: string };

/**
 * The person's decision on a checkpoint, recorded with the person as actor (an approval is an
 * event, never a claim in a message), then the task is woken so the waiting turn resumes.
 */
export async function resolveCheckpoint(
  deps: CommandDeps,
  request: ResolveCheckpointRequest,
): Promise<{ changed: boolean }> {
  const { taskId, ...resolution } = request;
  for (let attempt = 1; ; attempt += 1) {
    const task = await TaskView.load(deps.store, taskId);
    if (task.existing === undefined || task.workspaceId === undefined)
      throw new DomainError(TaskErrors.TASK_NOT_FOUND, `No task ${taskId}`);
    const events = taskDecider.decide({ type: 'ResolveCheckpoint', ...resolution }, task.state);
    try {
      if (events.length > 0) {
        const write = {
          workspaceId: task.workspaceId,
          actor: { kind: 'user' as const, userId: resolution.resolvedBy },
          fallbackCorrelationId: taskId,
        };
        await deps.store.append(task.streamId, toNewEvents(events, write, deps.ids), task.revision);
      }
    } catch (error) {
      if (error instanceof ConcurrencyError && attempt < COMMAND_ATTEMPTS) continue;
      throw error;
    }
    const turnId = task.existing.checkpoints[resolution.checkpointId]?.turnId;
    await publishWakeUp(deps.bus, {
      kind: 'wake',
      workspaceId: task.workspaceId,
      taskId,
      ...(turnId !== undefined ? { turnId } : {}),
      reason: 'approval',
    }).catch((error: unknown) =>
      deps.logger.warn(
        { taskId, error: error instanceof Error ? error.message : String(error) },
        'wake after a resolved checkpoint not published; the watchdog finds the waiting turn',
      ),
    );
    return { changed: events.length > 0 };
  }
}
