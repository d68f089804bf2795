import type { KnownEvent } from '../engine/known-event';
import type { ProjectionDefinition } from '../engine/projection-definition';
import { entityIdOf } from '../engine/stream-revisions';
import { checkpointsItemId, createdTaskOf, evolveCheckpointsItem, userOfMainStream } from './main-line-checkpoints';
import type { MainLineDocument } from './main-line.document';

function mainLineIds(event: KnownEvent): readonly string[] {
  switch (event.type) {
    case 'RoutingDecided': {
      const created = createdTaskOf(event);
      return created === null ? [event.data.messageId] : [event.data.messageId, checkpointsItemId(created)];
    }
    case 'CheckpointOpened':
    case 'CheckpointResolved':
      return [checkpointsItemId(entityIdOf(event.metadata.streamId))];
    case 'UserMessageReceived':
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

function blankMainLineItem(id: string, event: KnownEvent): MainLineDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    kind: null,
    // A task's cards may arrive before the routing decision that names their person.
    userId: event.metadata.streamId.startsWith('main-') ? userOfMainStream(event.metadata.streamId) : null,
    seq: null,
    createdAt: null,
    at: null,
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
    checkpoints: null,
  };
}

function evolveMainLineItem(item: MainLineDocument, event: KnownEvent): MainLineDocument {
  const at = event.metadata.occurredAt;
  if (isCheckpointsItem(item, event)) return evolveCheckpointsItem(item, event);
  switch (event.type) {
    case 'UserMessageReceived': {
      const { messageId, text, language, channel, target, clientMessageId, answersCardId } = event.data;
      return {
        ...item,
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
      return { ...item, seq: item.seq ?? event.metadata.revision, createdAt: item.createdAt ?? at, card };
    }
    default:
      return item;
  }
}

/** Task events reach only checkpoints items; a creating routing decision reaches one too. */
function isCheckpointsItem(item: MainLineDocument, event: KnownEvent): boolean {
  if (event.type === 'CheckpointOpened' || event.type === 'CheckpointResolved') return true;
  if (event.type !== 'RoutingDecided') return false;
  const created = createdTaskOf(event);
  return created !== null && item._id === checkpointsItemId(created);
}

/** What the item is follows from what it holds; its place on the line from when it came. */
function deriveMainLineItem(item: MainLineDocument): MainLineDocument {
  const kind =
    item.messageId !== null
      ? 'message'
      : item.card !== null
        ? 'card'
        : item.checkpoints !== null
          ? 'checkpoints'
          : null;
  const at = kind === 'checkpoints' ? (item.checkpoints?.lastOpenedAt ?? null) : item.createdAt;
  return kind === item.kind && at === item.at ? item : { ...item, kind, at };
}

const fromMain = { owner: 'stream', category: 'main' } as const;
const derived = { owner: 'derived' } as const;

/** The main line of one person: filtered by workspace and user, newest first by `at`, then `seq`. */
export const mainLineProjection: ProjectionDefinition<MainLineDocument> = {
  name: 'main_line',
  // 2: clarification cards with ids, options and their answer; routing reasons; answersCardId.
  // 3: a task's checkpoint cards as an item of their own (from the task stream); kind derived;
  // the line ordered by `at`.
  version: 3,
  categories: ['main', 'task'],
  handles: [
    'UserMessageReceived',
    'RoutingDecided',
    'ClarificationRequested',
    'ClarificationAnswered',
    'MainReplied',
    'TaskCardShown',
    'CheckpointOpened',
    'CheckpointResolved',
  ],
  indexes: [{ fields: { workspaceId: 1, userId: 1, at: -1, seq: -1 } }],
  ownership: {
    kind: derived,
    userId: fromMain,
    seq: fromMain,
    createdAt: fromMain,
    at: derived,
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
    checkpoints: { owner: 'stream', category: 'task' },
  },
  documentIds: mainLineIds,
  blank: blankMainLineItem,
  evolve: evolveMainLineItem,
  derive: deriveMainLineItem,
};
