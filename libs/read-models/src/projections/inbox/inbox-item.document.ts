import type { ProjectionDocument } from '../engine/projection-definition';

/**
 * What last happened to the item: `delivered`, then `claimed` by a step; `released` when that
 * step never committed (claimable again); `replaced` when the person changed the text before a
 * claim (claimable); `withdrawn` is final.
 */
export type InboxItemStatus = 'delivered' | 'claimed' | 'released' | 'withdrawn' | 'replaced';

/**
 * `inbox_items`: one document per item, `_id` = itemId (= the message id). Fields from the task
 * stream, except `consumedAt`, which the consuming turn's ModelStepCommitted writes. Until the
 * delivery is applied the document may exist with `created: false` (the turn's event came first).
 */
export type InboxItemDocument = ProjectionDocument & {
  created: boolean;
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
  /** From `turn-<turnId>`: the committed step that read the item. */
  consumedAt: { turnId: string; step: number } | null;
};
