import type { ProjectionDocument } from '../engine/projection-definition';

/**
 * What last happened to the item: `delivered`, then `claimed` by a step; `released` when that
 * step never committed (claimable again); `replaced` when the person changed the text before a
 * claim (claimable); `withdrawn` is final, and so is `moved`: the person moved the unread message
 * to another task (or a merge took it there), where it arrives as a delivery of its own.
 */
export type InboxItemStatus = 'delivered' | 'claimed' | 'released' | 'withdrawn' | 'replaced' | 'moved';

/**
 * `inbox_items`: one document per item of a task, `_id` = `{taskId}:{itemId}` (inboxItemDocumentId):
 * a moved message is an item of two tasks, and each document follows one task stream. Fields from the task
 * stream, except `consumedAt`, which the consuming turn's ModelStepCommitted writes. Until the
 * delivery is applied the document may exist with `created: false` (the turn's event came first).
 */
export type InboxItemDocument = ProjectionDocument & {
  created: boolean;
  /** The item id (= the message id). */
  itemId: string;
  taskId: string | null;
  messageId: string | null;
  text: string | null;
  language: string | null;
  status: InboxItemStatus | null;
  /** The turn and step that hold the claim; null unless claimed. */
  claimedAt: { turnId: string; step: number } | null;
  replacements: number;
  withdrawnBy: string | null;
  deliveredAt: string | null;
  updatedAt: string | null;
  /** Set once the person moved it (or a merge took it) to another task; unread, it left this inbox. */
  movedTo: { taskId: string; consumed: boolean } | null;
  /** Set when it arrived here by a move or a merge; the note is what the agent reads with it. */
  movedFrom: { taskId: string; note: string; consumedThere: boolean } | null;
  /** From `turn-<turnId>`: the committed step that read the item. */
  consumedAt: { turnId: string; step: number } | null;
};
