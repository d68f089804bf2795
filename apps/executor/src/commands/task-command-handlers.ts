import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import { ID_GENERATOR, type IdGenerator } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, type Logger } from '@lomo/observability';
import { interruptTask, resolveCheckpoint, resumeTask, type CommandDeps, type InterruptResult } from '@lomo/runtime';
import { PauseTask, ResolveCheckpoint, ResumeTask, StopTask } from './task-commands';

abstract class RuntimeCommandHandler {
  protected readonly deps: CommandDeps;

  constructor(store: EventStore, bus: EventBus, ids: IdGenerator, logger: Logger) {
    this.deps = { store, bus, ids, logger: logger.child({ component: 'task-commands' }) };
  }
}

@CommandHandler(StopTask)
export class StopTaskHandler extends RuntimeCommandHandler implements ICommandHandler<StopTask, InterruptResult> {
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(EVENT_BUS) bus: EventBus,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(store, bus, ids, logger);
  }

  execute(command: StopTask): Promise<InterruptResult> {
    return interruptTask(this.deps, 'stop', command);
  }
}

@CommandHandler(PauseTask)
export class PauseTaskHandler extends RuntimeCommandHandler implements ICommandHandler<PauseTask, InterruptResult> {
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(EVENT_BUS) bus: EventBus,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(store, bus, ids, logger);
  }

  execute(command: PauseTask): Promise<InterruptResult> {
    return interruptTask(this.deps, 'pause', command);
  }
}

@CommandHandler(ResumeTask)
export class ResumeTaskHandler
  extends RuntimeCommandHandler
  implements ICommandHandler<ResumeTask, { changed: boolean }>
{
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(EVENT_BUS) bus: EventBus,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(store, bus, ids, logger);
  }

  execute(command: ResumeTask): Promise<{ changed: boolean }> {
    return resumeTask(this.deps, command);
  }
}

@CommandHandler(ResolveCheckpoint)
export class ResolveCheckpointHandler
  extends RuntimeCommandHandler
  implements ICommandHandler<ResolveCheckpoint, { changed: boolean }>
{
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(EVENT_BUS) bus: EventBus,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(store, bus, ids, logger);
  }

  execute(command: ResolveCheckpoint): Promise<{ changed: boolean }> {
    return resolveCheckpoint(this.deps, command.request);
  }
}
