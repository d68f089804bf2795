import { deterministicUuid } from '@lomo/contracts';
import type { KnownEvent, KnownEventOf } from '../engine/known-event';
import { entityIdOf } from '../engine/stream-revisions';
import { checkpointCardOf } from '../tasks/task.evolve';
import type { MainLineDocument } from './main-line.document';

/**
 * The main-line item of a task's checkpoint cards. One per task, not one per card: the task
 * stream does not say whose task it is, only the creating message's routing decision (on that
 * person's main stream) does, and that event cannot name cards opened later. A document both
 * streams can name is the task's, so the owner and the cards meet there, each field from its
 * own stream, whatever order they arrive in.
 */
export const checkpointsItemId = (taskId: string): string => deterministicUuid('lomo.main-line.checkpoints', taskId);

/** The routing decisions that create a task: the message's person owns the task's cards. */
export function createdTaskOf(event: KnownEventOf<'RoutingDecided'>): string | null {
  const { outcome, taskId } = event.data;
  return (outcome === 'new' || outcome === 'lightweight') && taskId !== null ? taskId : null;
}

/** `main-{workspaceId}.{userId}`: the user id is what follows the first ".". */
export const userOfMainStream = (streamId: string): string => streamId.slice(streamId.indexOf('.') + 1);

/**
 * One event applied to a task's checkpoints item: the owner from the creating routing decision,
 * the cards from the task stream, folded by the tasks projection's rules (task.evolve.ts).
 */
export function evolveCheckpointsItem(item: MainLineDocument, event: KnownEvent): MainLineDocument {
  switch (event.type) {
    case 'RoutingDecided':
      // One message creates a task (its id derives from the message): the first owner stands.
      return item.userId === null ? { ...item, userId: userOfMainStream(event.metadata.streamId) } : item;
    case 'CheckpointOpened': {
      const before = item.checkpoints;
      if (before?.cards.some((c) => c.checkpointId === event.data.checkpointId)) return item;
      const card = checkpointCardOf(event);
      return {
        ...item,
        checkpoints: {
          taskId: entityIdOf(event.metadata.streamId),
          cards: [...(before?.cards ?? []), card],
          lastOpenedAt: event.metadata.occurredAt,
        },
      };
    }
    case 'CheckpointResolved': {
      // The domain's rule: a resolution the agent recorded itself resolves nothing; the first stands.
      const before = item.checkpoints;
      if (before === null || event.metadata.actor.kind === 'agent') return item;
      const { checkpointId, decision, answer, choice, resolvedBy } = event.data;
      const open = before.cards.findIndex((c) => c.checkpointId === checkpointId && c.resolution === null);
      if (open < 0) return item;
      const resolution = {
        decision,
        note: answer ?? null,
        choice: choice ?? null,
        resolvedBy,
        resolvedAt: event.metadata.occurredAt,
      };
      const cards = before.cards.map((c, i) => (i === open ? { ...c, resolution } : c));
      return { ...item, checkpoints: { ...before, cards } };
    }
    default:
      return item;
  }
}
