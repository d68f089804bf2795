import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ID_GENERATOR, mainEvents, streams, type EventEnvelope, type IdGenerator } from '@lomo/contracts';
import {
  DomainError,
  fold,
  MainLineErrors,
  mainLineDecider,
  mainLineEventTypes,
  type MainLineEvent,
} from '@lomo/domain';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, traceContext, type Logger } from '@lomo/observability';
import { AnswerClarification } from './answer-clarification.command';
import { messageLanguage } from './message-language';
import { ReceiveUserMessage, type ReceiveUserMessageResult } from './receive-user-message.command';

const known = new Set<string>(mainLineEventTypes);

/**
 * Checks the answer against the person's OWN main line, folded with the main-line decider (a card
 * on another person's line is simply not there: CARD_NOT_FOUND), then appends it through the one
 * receive path (ReceiveUserMessage) with a client id derived from the card, so a retried answer
 * returns the first result and two answers racing leave one message. Refused, with nothing
 * appended: an unknown card, an answered one (resolved, or an answer already waiting to be routed
 * that says something else), an option the card does not offer, a blank or too long text.
 */
@CommandHandler(AnswerClarification)
export class AnswerClarificationHandler implements ICommandHandler<AnswerClarification, ReceiveUserMessageResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(command: AnswerClarification): Promise<ReceiveUserMessageResult> {
    const { workspaceId, userId, cardId, choice } = command;
    const streamId = streams.main(workspaceId, userId);
    const envelopes = await this.store.readStream(streamId);
    const events = envelopes.filter((e) => known.has(e.type)) as unknown as MainLineEvent[];
    const card = fold(mainLineDecider, events).clarifications[cardId];
    if (card === undefined)
      throw new DomainError(MainLineErrors.CARD_NOT_FOUND, `Clarification card ${cardId} is not on your main line`);
    const waiting = envelopes.find((e) => e.type === 'UserMessageReceived' && answersOf(e) === cardId);
    // Resolved by the router: only a retry of the answer that resolved it gets its first result.
    if (card.answer !== undefined && card.answer.answerMessageId !== waiting?.metadata.eventId)
      throw new DomainError(MainLineErrors.CARD_ALREADY_ANSWERED, `Clarification card ${cardId} was answered already`);
    const option = 'optionId' in choice ? card.options.find((o) => o.optionId === choice.optionId) : undefined;
    if ('optionId' in choice && option === undefined)
      throw new DomainError(MainLineErrors.UNKNOWN_OPTION, `Card ${cardId} offers no option ${choice.optionId}`);
    const text = option !== undefined ? option.label : 'text' in choice ? choice.text : '';
    if (!/\S/.test(text) || text.length > mainEvents.MAX_MESSAGE_TEXT)
      throw new DomainError(
        MainLineErrors.INVALID_COMMAND,
        `An answer is 1 to ${mainEvents.MAX_MESSAGE_TEXT} characters`,
      );
    // An option speaks the card's language; a typed answer is the person's own words.
    const language = messageLanguage(text, option !== undefined ? cardLanguage(envelopes, cardId) : undefined);

    if (waiting !== undefined) {
      if ((waiting.data as { text: string }).text !== text)
        throw new DomainError(
          MainLineErrors.CARD_ALREADY_ANSWERED,
          `Clarification card ${cardId} was answered already`,
        );
      return { messageId: waiting.metadata.eventId, streamId, revision: waiting.metadata.revision, created: false };
    }
    const trace = command.trace ?? traceContext.current() ?? { correlationId: this.ids.uuid(), causationId: null };
    const result = await this.commands.execute<ReceiveUserMessage, ReceiveUserMessageResult>(
      new ReceiveUserMessage(workspaceId, userId, text, language, 'card', trace, `card.${cardId}`, undefined, cardId),
    );
    this.logger.info(
      { workspaceId, userId, cardId, messageId: result.messageId, created: result.created },
      'clarification answered',
    );
    return result;
  }
}

const answersOf = (e: EventEnvelope) => (e.data as { answersCardId?: string }).answersCardId;

function cardLanguage(envelopes: readonly EventEnvelope[], cardId: string): string | undefined {
  const asked = envelopes.find(
    (e) => e.type === 'ClarificationRequested' && (e.data as { cardId: string }).cardId === cardId,
  );
  return (asked?.data as { language?: string } | undefined)?.language;
}
