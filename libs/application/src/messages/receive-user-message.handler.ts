import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { deterministicUuid, ID_GENERATOR, streams, type IdGenerator, type NewEvent } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, traceContext, type Logger } from '@lomo/observability';
import { ReceiveUserMessage, type ReceiveUserMessageResult } from './receive-user-message.command';

/**
 * Appends UserMessageReceived to the person's main stream. The message id is derived from
 * (workspace, user, clientMessageId) and is also the event id, so a retried request re-appends the same
 * event id and the store answers with the first result instead of writing a duplicate.
 */
@CommandHandler(ReceiveUserMessage)
export class ReceiveUserMessageHandler implements ICommandHandler<ReceiveUserMessage, ReceiveUserMessageResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  execute(command: ReceiveUserMessage): Promise<ReceiveUserMessageResult> {
    return traceContext.run(command.trace, async () => {
      const messageId = command.clientMessageId
        ? deterministicUuid('lomo.message', command.workspaceId, command.userId, command.clientMessageId)
        : this.ids.uuid();
      const streamId = streams.main(command.workspaceId, command.userId);
      const event: NewEvent = {
        eventId: messageId,
        type: 'UserMessageReceived',
        data: {
          messageId,
          userId: command.userId,
          text: command.text,
          language: command.language,
          channel: command.channel,
          ...(command.target ? { target: command.target } : {}),
          ...(command.clientMessageId ? { clientMessageId: command.clientMessageId } : {}),
        },
        metadata: {
          correlationId: command.trace.correlationId,
          causationId: command.trace.causationId,
          workspaceId: command.workspaceId,
          actor: { kind: 'user', userId: command.userId },
        },
      };
      const result = await this.store.append(streamId, [event], 'any');
      this.logger.info(
        {
          messageId,
          streamId,
          revision: result.nextExpectedRevision,
          created: result.written,
          workspaceId: command.workspaceId,
        },
        'user message received',
      );
      return { messageId, streamId, revision: result.nextExpectedRevision, created: result.written };
    });
  }
}
