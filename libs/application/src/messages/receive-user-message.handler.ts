import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@lomo/command-handling';
import { deterministicUuid, ID_GENERATOR, streams, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import {
  mainLineDecider,
  mainLineEventTypes,
  messageReceiptDecider,
  messageReceiptEventTypes,
  type ReceiveMessage,
} from '@lomo/domain';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, traceContext, type Logger } from '@lomo/observability';
import { ReceiveUserMessage, type ReceiveUserMessageResult } from './receive-user-message.command';

/**
 * Appends UserMessageReceived to the person's main stream through the main-line decider
 * (DESIGN.md §4 step 1). A message sent with the client's own id first takes a receipt for it
 * (`receipt-…`, created expecting "no stream": the uniqueness check); the receipt records the main
 * line's head before the message, so a retried request folds only the tail from there, finds the
 * message and returns the first result, or appends it if a crash came between the two writes.
 * Without a client id the message id is fresh and the main line is folded from its head.
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
      const metadata: WriteMetadata = {
        correlationId: command.trace.correlationId,
        causationId: command.trace.causationId,
        workspaceId: command.workspaceId,
        actor: { kind: 'user', userId: command.userId },
      };
      const head = await this.store.streamRevision(streamId);
      const headBefore = head === 'no_stream' ? -1 : head;
      const from = command.clientMessageId
        ? await this.reserve(command, messageId, streamId, headBefore, metadata)
        : headBefore;
      const receive: ReceiveMessage = {
        type: 'ReceiveMessage',
        messageId,
        userId: command.userId,
        text: command.text,
        language: command.language,
        channel: command.channel,
        ...(command.target ? { target: command.target } : {}),
        ...(command.clientMessageId ? { clientMessageId: command.clientMessageId } : {}),
        ...(command.answersCardId ? { answersCardId: command.answersCardId } : {}),
      };
      const result = await handleCommand(this.store, streamId, mainLineDecider, receive, {
        eventTypes: mainLineEventTypes,
        metadata,
        ids: this.ids,
        fromRevision: from + 1,
        eventIdFor: () => messageId,
      });
      const revision = result.changed
        ? result.writes[0].revision
        : await this.revisionOf(streamId, messageId, from + 1);
      this.logger.info(
        { messageId, streamId, revision, created: result.changed, workspaceId: command.workspaceId },
        'user message received',
      );
      return { messageId, streamId, revision, created: result.changed };
    });
  }

  /** The first reservation of this client id stands: its main-line head bounds where the message is. */
  private async reserve(
    command: ReceiveUserMessage,
    messageId: string,
    mainStreamId: string,
    headBefore: number,
    metadata: WriteMetadata,
  ): Promise<number> {
    const receipt = await handleCommand(
      this.store,
      streams.receipt(command.workspaceId, command.userId, messageId),
      messageReceiptDecider,
      { type: 'ReserveMessageReceipt', messageId, mainStreamId, mainRevisionBefore: headBefore },
      { eventTypes: messageReceiptEventTypes, metadata, ids: this.ids },
    );
    return receipt.state.status === 'reserved' ? receipt.state.reservation.mainRevisionBefore : headBefore;
  }

  /** Where an earlier arrival of the message sits: it was appended after the receipt's head. */
  private async revisionOf(streamId: string, messageId: string, fromRevision: number): Promise<number> {
    const tail = await this.store.readStream(streamId, { fromRevision });
    const found = tail.find((e) => e.metadata.eventId === messageId);
    if (found === undefined) throw new Error(`Message ${messageId} was received but is not on ${streamId}`);
    return found.metadata.revision;
  }
}
