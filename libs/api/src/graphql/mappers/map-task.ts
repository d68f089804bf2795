import type { InboxItemDocument, TaskDocument } from '@lomo/read-models';
import type { InboxItem, Task } from '../types/task.types';

export function mapTask(d: TaskDocument): Task {
  return {
    id: d._id,
    goal: d.goal,
    kind: d.kind,
    summary: d.summary,
    mergedInto: d.mergedInto,
    status: d.status,
    language: d.language,
    originMessageId: d.originMessageId,
    createdAt: d.createdAt,
    lastActivityAt: d.lastActivityAt,
    activeTurnId: d.activeTurnId,
    activeTurnSummary: d.activeTurn,
    openCheckpoints: d.openCheckpoints,
    lastContinuation: d.lastContinuation ?? null,
    counts: d.counts,
  };
}

export function mapInboxItem(d: InboxItemDocument): InboxItem {
  return {
    // The document id is `{taskId}:{itemId}`; the item id is the message id.
    id: d.itemId,
    taskId: d.taskId,
    messageId: d.messageId,
    text: d.text,
    language: d.language,
    status: d.status,
    claimedAt: d.claimedAt,
    consumedAt: d.consumedAt,
    replacements: d.replacements,
    movedTo: d.movedTo,
    movedFrom: d.movedFrom,
    deliveredAt: d.deliveredAt,
    updatedAt: d.updatedAt,
  };
}
