import type { Caller } from '@lomo/auth';
import { isValidStreamId, streams, type EventEnvelope } from '@lomo/contracts';
import type { TaskState } from '@lomo/domain';
import { UnknownTargetError } from '../errors';
import { assertMayReadWorkspace, mayShow } from '../access/operator-access';
import { ForgottenContent, purged, PURGE_REASONS } from './forgotten-content';
import type { InspectionSources } from './inspection-sources';
import type { InspectedInboxItem } from './inspection.types';
import { foldEvents, foldForCategory } from './stream-folds';

/** A task's streams as the caller may see them, and what the views of it share. */
export interface TaskRecord {
  taskId: string;
  workspaceId: string;
  state: TaskState;
  taskEvents: EventEnvelope[];
  /** Turn ids in the order they were opened, each with its visible events. */
  turns: Array<{ turnId: string; events: EventEnvelope[] }>;
  forgotten: ForgottenContent;
  /** Items by id: the same objects wherever an item is shown. */
  inbox: Map<string, InspectedInboxItem>;
}

/** Reads `task-{taskId}` and every turn it opened; unknown -> NOT_FOUND, another workspace -> FORBIDDEN. */
export async function readTaskRecord(sources: InspectionSources, caller: Caller, taskId: string): Promise<TaskRecord> {
  const streamId = streams.task(taskId);
  if (!isValidStreamId(streamId)) throw new UnknownTargetError('task', taskId);
  const raw = await sources.events.readStream(streamId);
  if (raw.length === 0) throw new UnknownTargetError('task', taskId);
  const workspaceId = raw[0].metadata.workspaceId;
  assertMayReadWorkspace(caller, workspaceId);
  const taskEvents = raw.filter((e) => mayShow(caller, e));
  const state = foldEvents(foldForCategory('task')!, taskEvents) as TaskState;

  const turnIds = [
    ...new Set(taskEvents.filter((e) => e.type === 'TurnOpened').map((e) => (e.data as { turnId: string }).turnId)),
  ];
  const turns = await Promise.all(
    turnIds.map(async (turnId) => ({
      turnId,
      events: (await sources.events.readStream(streams.turn(turnId))).filter((e) => mayShow(caller, e)),
    })),
  );
  const forgotten = new ForgottenContent(
    taskEvents,
    turns.flatMap((t) => t.events),
  );
  return {
    taskId,
    workspaceId,
    state,
    taskEvents,
    turns,
    forgotten,
    inbox: inboxOf(state, taskEvents, turns, forgotten),
  };
}

/** The inbox with who consumed what: a committed step's consumedItemIds are the record of it. */
function inboxOf(
  state: TaskState,
  taskEvents: readonly EventEnvelope[],
  turns: TaskRecord['turns'],
  forgotten: ForgottenContent,
): Map<string, InspectedInboxItem> {
  const items = new Map<string, InspectedInboxItem>();
  if (state.status === 'none') return items;
  const consumedBy = new Map<string, string>();
  for (const { turnId, events } of turns)
    for (const e of events) {
      if (e.type !== 'ModelStepCommitted') continue;
      const d = e.data as { step: number; consumedItemIds: string[] };
      for (const id of d.consumedItemIds) if (!consumedBy.has(id)) consumedBy.set(id, `${turnId}#${d.step}`);
    }
  const deliveredAt = new Map<string, string>();
  for (const e of taskEvents) {
    const itemId = (e.data as { itemId?: string }).itemId;
    if (e.type === 'MessageDeliveredToInbox' && itemId !== undefined && !deliveredAt.has(itemId))
      deliveredAt.set(itemId, e.metadata.occurredAt);
  }
  for (const item of Object.values(state.inbox)) {
    const consumed = consumedBy.get(item.itemId) ?? null;
    items.set(item.itemId, {
      itemId: item.itemId,
      messageId: item.messageId,
      from: item.from,
      deliveredAt: deliveredAt.get(item.itemId) ?? '',
      text: forgotten.isMessageForgotten(item.messageId) ? purged(PURGE_REASONS.forgotten) : item.text,
      consumedBy: consumed,
      state:
        consumed !== null
          ? 'consumed'
          : item.status === 'withdrawn'
            ? 'withdrawn'
            : item.status === 'claimed'
              ? 'claimed'
              : item.replacements > 0
                ? 'replaced'
                : 'pending',
    });
  }
  return items;
}
