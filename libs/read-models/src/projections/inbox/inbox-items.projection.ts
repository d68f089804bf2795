import type { KnownEvent } from '../engine/known-event';
import type { ProjectionDefinition } from '../engine/projection-definition';
import { entityIdOf } from '../engine/stream-revisions';
import type { InboxItemDocument } from './inbox-item.document';

function inboxItemIds(event: KnownEvent): readonly string[] {
  switch (event.type) {
    case 'MessageDeliveredToInbox':
    case 'InboxItemWithdrawn':
    case 'InboxItemReplaced':
      return [event.data.itemId];
    case 'InboxItemsClaimed':
    case 'InboxItemsReleased':
      return event.data.itemIds;
    case 'ModelStepCommitted':
      return event.data.consumedItemIds;
    default:
      return [];
  }
}

function blankInboxItem(id: string, event: KnownEvent): InboxItemDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    created: false,
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
    consumedAt: null,
  };
}

function evolveInboxItem(item: InboxItemDocument, event: KnownEvent): InboxItemDocument {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'MessageDeliveredToInbox': {
      const { messageId, text, language } = event.data;
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
  version: 1,
  categories: ['task', 'turn'],
  handles: [
    'MessageDeliveredToInbox',
    'InboxItemWithdrawn',
    'InboxItemReplaced',
    'InboxItemsClaimed',
    'InboxItemsReleased',
    'ModelStepCommitted',
  ],
  indexes: [{ fields: { workspaceId: 1, taskId: 1, deliveredAt: 1 } }],
  ownership: {
    created: fromTask,
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
    consumedAt: { owner: 'stream', category: 'turn' },
  },
  documentIds: inboxItemIds,
  blank: blankInboxItem,
  evolve: evolveInboxItem,
};
