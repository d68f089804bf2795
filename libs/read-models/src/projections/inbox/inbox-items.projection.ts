import type { KnownEvent } from '../engine/known-event';
import type { ProjectionContext, ProjectionDefinition } from '../engine/projection-definition';
import { entityIdOf } from '../engine/stream-revisions';
import type { InboxItemDocument } from './inbox-item.document';

/** An item of a task's inbox; a message moved to another task is an item there too. */
export const inboxItemDocumentId = (taskId: string, itemId: string) => `${taskId}:${itemId}`;

const itemIdOf = (documentId: string) => documentId.slice(documentId.indexOf(':') + 1);

function itemIdsOf(event: KnownEvent): readonly string[] {
  switch (event.type) {
    case 'MessageDeliveredToInbox':
    case 'InboxItemWithdrawn':
    case 'InboxItemReplaced':
    case 'MessageMoved':
      return [event.data.itemId];
    case 'InboxItemsClaimed':
    case 'InboxItemsReleased':
      return event.data.itemIds;
    case 'TasksMerged':
      // The target's side arrives as deliveries of their own.
      return event.data.role === 'source' ? event.data.movedItemIds : [];
    case 'ModelStepCommitted':
      return event.data.consumedItemIds;
    default:
      return [];
  }
}

function inboxItemIds(event: KnownEvent, context: ProjectionContext): readonly string[] | Promise<readonly string[]> {
  const itemIds = itemIdsOf(event);
  if (itemIds.length === 0) return [];
  const streamId = event.metadata.streamId;
  if (streamId.startsWith('task-')) {
    const taskId = entityIdOf(streamId);
    return itemIds.map((itemId) => inboxItemDocumentId(taskId, itemId));
  }
  // A step consumes items of its own task's inbox.
  const turnId = entityIdOf(streamId);
  const ofTask = (taskId: string | undefined) =>
    taskId === undefined ? [] : itemIds.map((itemId) => inboxItemDocumentId(taskId, itemId));
  const known = context.knownTaskOfTurn(turnId);
  return known !== undefined ? ofTask(known) : context.taskOfTurn(turnId).then(ofTask);
}

function blankInboxItem(id: string, event: KnownEvent): InboxItemDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    created: false,
    itemId: itemIdOf(id),
    taskId: null,
    messageId: null,
    text: null,
    language: null,
    status: null,
    claimedAt: null,
    replacements: 0,
    withdrawnBy: null,
    deliveredAt: null,
    updatedAt: null,
    movedTo: null,
    movedFrom: null,
    consumedAt: null,
  };
}

function evolveInboxItem(item: InboxItemDocument, event: KnownEvent): InboxItemDocument {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'MessageDeliveredToInbox': {
      const { messageId, text, language, movedFrom } = event.data;
      const taskId = entityIdOf(event.metadata.streamId);
      return {
        ...item,
        created: true,
        taskId,
        messageId,
        text,
        language,
        status: 'delivered',
        deliveredAt: at,
        updatedAt: at,
        movedFrom: movedFrom === undefined ? null : { ...movedFrom },
      };
    }
    case 'InboxItemWithdrawn':
      return { ...item, status: 'withdrawn', withdrawnBy: event.data.by, updatedAt: at };
    case 'InboxItemReplaced':
      return {
        ...item,
        text: event.data.text,
        language: event.data.language,
        status: 'replaced',
        replacements: item.replacements + 1,
        updatedAt: at,
      };
    case 'InboxItemsClaimed':
      return {
        ...item,
        status: 'claimed',
        claimedAt: { turnId: event.data.turnId, step: event.data.step },
        updatedAt: at,
      };
    case 'InboxItemsReleased':
      return { ...item, status: 'released', claimedAt: null, updatedAt: at };
    case 'MessageMoved': {
      const { toTaskId, consumed } = event.data;
      const movedTo = { taskId: toTaskId, consumed };
      // Unread, it leaves this inbox like a withdrawal; read, it stays here as history.
      return consumed
        ? { ...item, movedTo, updatedAt: at }
        : { ...item, status: 'moved', claimedAt: null, movedTo, updatedAt: at };
    }
    case 'TasksMerged':
      return {
        ...item,
        status: 'moved',
        claimedAt: null,
        movedTo: { taskId: event.data.targetTaskId, consumed: false },
        updatedAt: at,
      };
    case 'ModelStepCommitted':
      return { ...item, consumedAt: { turnId: entityIdOf(event.metadata.streamId), step: event.data.step } };
    default:
      return item;
  }
}

const fromTask = { owner: 'stream', category: 'task' } as const;

/** A task's inbox: `inbox_items` filtered by workspace and task, in delivery order. */
export const inboxItemsProjection: ProjectionDefinition<InboxItemDocument> = {
  name: 'inbox_items',
  // 2: one document per task and item (a moved message is an item of both), moved items.
  version: 2,
  categories: ['task', 'turn'],
  handles: [
    'MessageDeliveredToInbox',
    'InboxItemWithdrawn',
    'InboxItemReplaced',
    'InboxItemsClaimed',
    'InboxItemsReleased',
    'MessageMoved',
    'TasksMerged',
    'ModelStepCommitted',
  ],
  indexes: [{ fields: { workspaceId: 1, taskId: 1, deliveredAt: 1 } }],
  ownership: {
    created: fromTask,
    itemId: fromTask,
    taskId: fromTask,
    messageId: fromTask,
    text: fromTask,
    language: fromTask,
    status: fromTask,
    claimedAt: fromTask,
    replacements: fromTask,
    withdrawnBy: fromTask,
    deliveredAt: fromTask,
    updatedAt: fromTask,
    movedTo: fromTask,
    movedFrom: fromTask,
    consumedAt: { owner: 'stream', category: 'turn' },
  },
  documentIds: inboxItemIds,
  blank: blankInboxItem,
  evolve: evolveInboxItem,
};
