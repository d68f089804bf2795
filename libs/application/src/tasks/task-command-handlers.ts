import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  interruptTask,
  resolveCheckpoint,
  resumeTask,
  type CommandDeps,
  type InterruptResult,
  type TaskCommandResult,
} from '@lomo/runtime';
import { COMMAND_DEPS } from '../executor/executor-tokens';
import { PauseTask, ResolveCheckpoint, ResumeTask, StopTask } from './task-commands';

// Thin CQRS adapters: the rules live in @lomo/runtime's command functions.

@CommandHandler(StopTask)
export class StopTaskHandler implements ICommandHandler<StopTask, InterruptResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  execute(command: StopTask): Promise<InterruptResult> {
    return interruptTask(this.deps, 'stop', command);
  }
}

@CommandHandler(PauseTask)
export class PauseTaskHandler implements ICommandHandler<PauseTask, InterruptResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  execute(command: PauseTask): Promise<InterruptResult> {
    return interruptTask(this.deps, 'pause', command);
  }
}

@CommandHandler(ResumeTask)
export class ResumeTaskHandler implements ICommandHandler<ResumeTask, TaskCommandResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  execute(command: ResumeTask): Promise<TaskCommandResult> {
    return resumeTask(this.deps, command);
  }
}

@CommandHandler(ResolveCheckpoint)
export class ResolveCheckpointHandler implements ICommandHandler<ResolveCheckpoint, TaskCommandResult> {
  constructor(@Inject(COMMAND_DEPS) private readonly deps: CommandDeps) {}

  execute(command: ResolveCheckpoint): Promise<TaskCommandResult> {
    return resolveCheckpoint(this.deps, command.request);
  }
}
