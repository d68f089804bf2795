import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@lomo/command-handling';
import { streams } from '@lomo/contracts';
import { taskDecider, taskEventTypes } from '@lomo/domain';
import { traceContext } from '@lomo/observability';
import { updateTaskSummary, type CommandDeps } from '@lomo/runtime';
import { COMMAND_DEPS } from '../executor/executor-tokens';
import { UpdateTaskSummary, UpgradeTask, type CorrectionResult } from './correction-commands';
import { inWorkspace, writeMetadata } from './task-in-workspace';

@CommandHandler(UpgradeTask)
export class UpgradeTaskHandler implements ICommandHandler<UpgradeTask, CorrectionResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  execute(command: UpgradeTask): Promise<CorrectionResult> {
    const trace = command.trace ?? traceContext.current();
    return trace ? traceContext.run(trace, () => this.upgrade(command)) : this.upgrade(command);
  }

  private async upgrade(command: UpgradeTask): Promise<CorrectionResult> {
    const { workspaceId, taskId, by, reason } = command;
    const result = await handleCommand(
      this.deps.store,
      streams.task(taskId),
      taskDecider,
      { type: 'UpgradeTask', reason, by },
      {
        eventTypes: taskEventTypes,
        metadata: writeMetadata(workspaceId, by, taskId),
        ids: this.deps.ids,
        guard: inWorkspace(taskId, workspaceId),
      },
    );
    this.deps.logger.info({ workspaceId, taskId, by, changed: result.changed }, 'task upgraded');
    return { taskId, changed: result.changed, writes: result.writes };
  }
}

/** The runtime's own path is libs/runtime/src/commands/update-task-summary.ts; this is its CQRS face. */
@CommandHandler(UpdateTaskSummary)
export class UpdateTaskSummaryHandler implements ICommandHandler<UpdateTaskSummary, CorrectionResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  async execute(command: UpdateTaskSummary): Promise<CorrectionResult> {
    const { workspaceId, taskId, summary, turnId } = command;
    const result = await updateTaskSummary(this.deps, {
      workspaceId,
      taskId,
      summary,
      ...(turnId !== undefined ? { turnId } : {}),
    });
    return { taskId, ...result };
  }
}
