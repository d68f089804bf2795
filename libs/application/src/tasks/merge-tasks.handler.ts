import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@lomo/command-handling';
import { streams } from '@lomo/contracts';
import { DomainError, TaskErrors, taskDecider, taskEventTypes } from '@lomo/domain';
import { traceContext } from '@lomo/observability';
import { publishWakeUp, type CommandDeps } from '@lomo/runtime';
import { COMMAND_DEPS } from '../executor/executor-tokens';
import { MergeTasks, type MergeTasksResult } from './correction-commands';
import { inWorkspace, readTaskIn, userActor, writeMetadata } from './task-in-workspace';

/**
 * Merges one task into another: on the source TasksMerged + TaskArchived{mergedInto} (refused
 * while a turn runs there), then on the target TasksMerged + one delivery per moved message, then
 * a wake-up of the target. Source first, for the reason MoveMessageHandler gives; both sides are
 * no-ops on a repeat, so rerunning the same merge completes a half-done one. Both tasks must be in
 * the caller's workspace (TASK_NOT_FOUND otherwise) and the target must take messages.
 */
@CommandHandler(MergeTasks)
export class MergeTasksHandler implements ICommandHandler<MergeTasks, MergeTasksResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  execute(command: MergeTasks): Promise<MergeTasksResult> {
    const trace = command.trace ?? traceContext.current();
    return trace ? traceContext.run(trace, () => this.merge(command)) : this.merge(command);
  }

  private async merge(command: MergeTasks): Promise<MergeTasksResult> {
    const { store, ids, logger } = this.deps;
    const { workspaceId, by, sourceTaskId, targetTaskId } = command;
    if (sourceTaskId === targetTaskId)
      throw new DomainError(TaskErrors.MERGE_INTO_SELF, `Task ${sourceTaskId} cannot be merged into itself`);
    const source = await readTaskIn(store, sourceTaskId, workspaceId);
    const target = await readTaskIn(store, targetTaskId, workspaceId);
    // The target's and the source's refusals before anything is written.
    taskDecider.decide({ type: 'AcceptMerge', sourceTaskId, items: [], by }, target);
    taskDecider.decide({ type: 'MergeInto', targetTaskId, by }, source);
    const metadata = writeMetadata(workspaceId, userActor(by), sourceTaskId);
    const out = await handleCommand(
      store,
      streams.task(sourceTaskId),
      taskDecider,
      { type: 'MergeInto', targetTaskId, by },
      { eventTypes: taskEventTypes, metadata, ids, guard: inWorkspace(sourceTaskId, workspaceId) },
    );
    // What the merge moved (or an earlier move to the same target left unread): read from the
    // source's state, so a rerun after a crash hands over the same items.
    const items =
      out.state.status === 'none'
        ? []
        : Object.values(out.state.inbox)
            .filter((i) => i.movedTo?.taskId === targetTaskId && !i.movedTo.consumed)
            .map((i) => ({ itemId: i.itemId, text: i.text, language: i.language }));
    const into = await handleCommand(
      store,
      streams.task(targetTaskId),
      taskDecider,
      { type: 'AcceptMerge', sourceTaskId, items, by },
      { eventTypes: taskEventTypes, metadata, ids, guard: inWorkspace(targetTaskId, workspaceId) },
    );
    if (items.length > 0)
      await publishWakeUp(this.deps.bus, { kind: 'wake', workspaceId, taskId: targetTaskId, reason: 'message' }).catch(
        (error: unknown) =>
          logger.warn(
            { taskId: targetTaskId, error: error instanceof Error ? error.message : String(error) },
            'wake after a merge not published; the watchdog finds the inbox',
          ),
      );
    const changed = out.changed || into.changed;
    const movedItemIds = items.map((i) => i.itemId);
    logger.info({ workspaceId, by, sourceTaskId, targetTaskId, moved: movedItemIds.length, changed }, 'tasks merged');
    return { sourceTaskId, targetTaskId, movedItemIds, changed, writes: [...out.writes, ...into.writes] };
  }
}
