import { ConcurrencyError, type Actor } from '@lomo/contracts';
import { DomainError, TaskErrors, taskDecider } from '@lomo/domain';
import { toNewEvents } from '../events/new-events';
import { TaskView } from '../streams/task-view';
import { publishWakeUp } from '../wakeups/publish-wake-up';
import { COMMAND_ATTEMPTS, type CommandDeps } from './command-deps';

/** Resumes a paused task and wakes it, so messages released by the pause are handled now. */
export async function resumeTask(
  deps: CommandDeps,
  request: { taskId: string; by: Actor },
): Promise<{ changed: boolean }> {
  for (let attempt = 1; ; attempt += 1) {
    const task = await TaskView.load(deps.store, request.taskId);
    if (task.existing === undefined || task.workspaceId === undefined)
      throw new DomainError(TaskErrors.TASK_NOT_FOUND, `No task ${request.taskId}`);
    const events = taskDecider.decide({ type: 'ResumeTask', by: request.by }, task.state);
    try {
      if (events.length > 0) {
        const write = { workspaceId: task.workspaceId, actor: request.by, fallbackCorrelationId: request.taskId };
        await deps.store.append(task.streamId, toNewEvents(events, write, deps.ids), task.revision);
      }
    } catch (error) {
      if (error instanceof ConcurrencyError && attempt < COMMAND_ATTEMPTS) continue;
      throw error;
    }
    await publishWakeUp(deps.bus, {
      kind: 'wake',
      workspaceId: task.workspaceId,
      taskId: request.taskId,
      reason: 'resume',
    }).catch((error: unknown) =>
      deps.logger.warn(
        { taskId: request.taskId, error: error instanceof Error ? error.message : String(error) },
        'wake after resume not published; the watchdog finds the inbox',
      ),
    );
    return { changed: events.length > 0 };
  }
}
