import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@lomo/command-handling';
import { ID_GENERATOR, streams, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type TaskCommand } from '@lomo/domain';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, traceContext, type Logger } from '@lomo/observability';
import { ArchiveTask, ReplaceMessage, WithdrawMessage, type TaskWriteResult } from './inbox-commands';

type Write = WithdrawMessage['by'];

const metadataOf = (by: Write): WriteMetadata => ({
  correlationId: by.trace.correlationId,
  causationId: by.trace.causationId,
  workspaceId: by.workspaceId,
  actor: { kind: 'user', userId: by.userId },
});

/** Read, fold, decide, append at the revision read (retried on a conflict); refusals are typed DomainErrors. */
abstract class TaskCommandHandler {
  constructor(
    protected readonly store: EventStore,
    protected readonly ids: IdGenerator,
    protected readonly logger: Logger,
  ) {}

  protected run(taskId: string, command: TaskCommand, by: Write): Promise<TaskWriteResult> {
    return traceContext.run(by.trace, async () => {
      const result = await handleCommand(this.store, streams.task(taskId), taskDecider, command, {
        eventTypes: taskEventTypes,
        metadata: metadataOf(by),
        ids: this.ids,
      });
      this.logger.info(
        { taskId, command: command.type, changed: result.changed, workspaceId: by.workspaceId, userId: by.userId },
        'task command handled',
      );
      return { taskId, changed: result.changed, writes: result.writes };
    });
  }
}

@CommandHandler(WithdrawMessage)
export class WithdrawMessageHandler extends TaskCommandHandler implements ICommandHandler<WithdrawMessage> {
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(store, ids, logger);
  }

  execute(c: WithdrawMessage): Promise<TaskWriteResult> {
    return this.run(c.taskId, { type: 'WithdrawInboxItem', itemId: c.messageId, by: c.by.userId }, c.by);
  }
}

@CommandHandler(ReplaceMessage)
export class ReplaceMessageHandler extends TaskCommandHandler implements ICommandHandler<ReplaceMessage> {
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(store, ids, logger);
  }

  execute(c: ReplaceMessage): Promise<TaskWriteResult> {
    const command = { type: 'ReplaceInboxItem' as const, itemId: c.messageId, text: c.text, language: c.language };
    return this.run(c.taskId, { ...command, by: c.by.userId }, c.by);
  }
}

@CommandHandler(ArchiveTask)
export class ArchiveTaskHandler extends TaskCommandHandler implements ICommandHandler<ArchiveTask> {
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(store, ids, logger);
  }

  execute(c: ArchiveTask): Promise<TaskWriteResult> {
    return this.run(c.taskId, { type: 'ArchiveTask', by: { kind: 'user', userId: c.by.userId } }, c.by);
  }
}
