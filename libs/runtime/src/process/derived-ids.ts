import { deterministicUuid } from '@lomo/contracts';

/**
 * Writes to the task stream that follow from a call carry ids derived from the call id: a stale
 * worker repeating them lands on the same checkpoint and the same event, which is a no-op.
 */
export const checkpointIdFor = (callId: string) => deterministicUuid('lomo.runtime.checkpoint', callId);
export const checkpointOpenedEventIdFor = (callId: string) =>
  deterministicUuid('lomo.runtime.checkpoint-opened', callId);

/** The review card the runtime opens for a checklist item when it closes the turn that did it. */
export const reviewCheckpointIdFor = (turnId: string, itemId: string) =>
  deterministicUuid('lomo.runtime.review', `${turnId}:${itemId}`);

/**
 * The budget card for a plan's shortfall: the same plan total and the same approved amount give
 * the same card, so it is asked once (a declined one is not asked again for the same plan).
 */
export const budgetCheckpointIdFor = (taskId: string, currency: string, totalMinor: number, approvedMinor: number) =>
  deterministicUuid('lomo.runtime.budget', `${taskId}:${currency}:${totalMinor}:${approvedMinor}`);
