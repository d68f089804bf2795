import type { KnownEvent } from '../engine/known-event';
import type { ProjectionDefinition } from '../engine/projection-definition';
import type { MainLineDocument } from './main-line.document';

function mainLineIds(event: KnownEvent): readonly string[] {
  switch (event.type) {
    case 'UserMessageReceived':
    case 'RoutingDecided':
    case 'ClarificationRequested':
    case 'ClarificationAnswered':
    case 'MainReplied':
      return [event.data.messageId];
    case 'TaskCardShown':
      return [event.data.messageId ?? event.data.cardId];
    default:
      return [];
  }
}

/** `main-{workspaceId}.{userId}`: the user id is what follows the first ".". */
const userOfStream = (streamId: string) => streamId.slice(streamId.indexOf('.') + 1);

function blankMainLineItem(id: string, event: KnownEvent): MainLineDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    kind: null,
    userId: userOfStream(event.metadata.streamId),
    seq: null,
    createdAt: null,
    messageId: null,
    text: null,
    language: null,
    channel: null,
    target: null,
    clientMessageId: null,
    answersCardId: null,
    routing: null,
    clarification: null,
    reply: null,
    card: null,
  };
}

function evolveMainLineItem(item: MainLineDocument, event: KnownEvent): MainLineDocument {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'UserMessageReceived': {
      const { messageId, text, language, channel, target, clientMessageId, answersCardId } = event.data;
      return {
        ...item,
        kind: 'message',
        seq: event.metadata.revision,
        createdAt: at,
        messageId,
        text,
        language,
        channel,
        target:
          target === undefined ? null : { taskId: target.taskId ?? null, artifactRef: target.artifactRef ?? null },
        clientMessageId: clientMessageId ?? null,
        answersCardId: answersCardId ?? null,
      };
    }
    case 'RoutingDecided': {
      // The first decision stands (the main-line decider's rule); a redelivered one changes nothing.
      if (item.routing !== null) return item;
      const { outcome, taskId, method, reason, answersCardId } = event.data;
      return {
        ...item,
        routing: {
          outcome,
          taskId,
          method,
          reason: reason ?? null,
          answersCardId: answersCardId ?? null,
          decidedAt: at,
        },
      };
    }
    case 'ClarificationRequested': {
      // One card per message (the decider's rule): the first stands.
      if (item.clarification !== null) return item;
      const { cardId, question, options, reason, language } = event.data;
      return {
        ...item,
        clarification: {
          cardId,
          question,
          options: options.map((o) => ({
            optionId: o.optionId,
            label: o.label,
            action: o.action,
            taskId: o.taskId ?? null,
          })),
          reason,
          language,
          askedAt: at,
          answered: null,
        },
      };
    }
    case 'ClarificationAnswered': {
      const card = item.clarification;
      // A card is answered once; an answer to another card of this message does not exist.
      if (card === null || card.cardId !== event.data.cardId || card.answered !== null) return item;
      const { optionId, text, answerMessageId } = event.data;
      return {
        ...item,
        clarification: {
          ...card,
          answered: { optionId: optionId ?? null, text: text ?? null, answerMessageId, answeredAt: at },
        },
      };
    }
    case 'MainReplied': {
      const { replyId, text, language } = event.data;
      return { ...item, reply: { replyId, text, language, repliedAt: at } };
    }
    case 'TaskCardShown': {
      const { cardId, taskId, title, status, summary, messageId } = event.data;
      const card = { cardId, taskId, title, status, summary: summary ?? null, shownAt: at };
      // A card of a message joins it; a card on its own is an item of the line.
      if (messageId !== undefined) return { ...item, card };
      return { ...item, kind: 'card', seq: item.seq ?? event.metadata.revision, createdAt: item.createdAt ?? at, card };
    }
    default:
      return item;
  }
}

const fromMain = { owner: 'stream', category: 'main' } as const;

/** The main line of one person: filtered by workspace and user, newest first by `seq`. */
export const mainLineProjection: ProjectionDefinition<MainLineDocument> = {
  name: 'main_line',
  // 2: clarification cards with ids, options and their answer; routing reasons; answersCardId.
  version: 2,
  categories: ['main'],
  handles: [
    'UserMessageReceived',
    'RoutingDecided',
    'ClarificationRequested',
    'ClarificationAnswered',
    'MainReplied',
    'TaskCardShown',
  ],
  indexes: [{ fields: { workspaceId: 1, userId: 1, seq: -1 } }],
  ownership: {
    kind: fromMain,
    userId: fromMain,
    seq: fromMain,
    createdAt: fromMain,
    messageId: fromMain,
    text: fromMain,
    language: fromMain,
    channel: fromMain,
    target: fromMain,
    clientMessageId: fromMain,
    answersCardId: fromMain,
    routing: fromMain,
    clarification: fromMain,
    reply: fromMain,
    card: fromMain,
  },
  documentIds: mainLineIds,
  blank: blankMainLineItem,
  evolve: evolveMainLineItem,
};
