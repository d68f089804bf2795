import { DomainError } from '../decider';
import type {
  ClaimInboxItems,
  DeliverMessage,
  ReleaseClaims,
  ReplaceInboxItem,
  WithdrawInboxItem,
} from './task-commands';
import { TaskErrors } from './task-errors';
import type { TaskEvent } from './task-events';
import { activeTurn, existing, invalid, notFinal, runnable } from './task-guards';
import { claimFor, noticesConsumedAt, openNotices, standingClaims, unclaimedItems } from './task-queries';
import type { ExistingTask, InboxItem, TaskState } from './task-state';

/** The contract caps one claim at 100 items; the rest wait for the next step. */
export const MAX_ITEMS_PER_CLAIM = 100;
/** The contract caps one consumption at 1 000 notices (one per artefact, so rarely reached). */
export const MAX_NOTICES_PER_STEP = 1000;

/**
 * Delivery is idempotent on the item (= message) id, checked before the status: a redelivery
 * that repairs a crash must succeed even if the task stopped meanwhile. A new message to a
 * stopped, completed or archived task is refused (TASK_STOPPED / TASK_CLOSED) so the router can
 * tell the person, instead of filling an inbox nothing will read. A paused task takes deliveries.
 * A moved message (`movedFrom`) repeats only a delivery from the same source; one this task holds
 * otherwise (moving a message back where it was) is refused: its item here is history already.
 */
export function deliverMessage(command: DeliverMessage, state: TaskState): TaskEvent[] {
  const task = existing(state);
  const { itemId, text, language, movedFrom, channel, from } = command;
  const held = task.inbox[itemId];
  if (held) {
    if (movedFrom === undefined || held.movedFrom?.taskId === movedFrom.taskId) return [];
    throw new DomainError(TaskErrors.MESSAGE_ALREADY_IN_TASK, `Task ${task.taskId} holds message ${itemId} already`);
  }
  if (movedFrom?.taskId === task.taskId)
    throw new DomainError(TaskErrors.MOVE_TO_SAME_TASK, `Message ${itemId} is in task ${task.taskId} already`);
  notFinal(task);
  const data = {
    itemId,
    messageId: itemId,
    text,
    language,
    ...(movedFrom ? { movedFrom: { ...movedFrom } } : {}),
    // Only an integration's channel is recorded: it is what changes how paid work is confirmed.
    ...(channel === 'api' ? { channel } : {}),
    ...(from !== undefined ? { from } : {}),
  };
  return [{ type: 'MessageDeliveredToInbox', data }];
}

function unclaimedItem(task: ExistingTask, itemId: string): InboxItem {
  const item = task.inbox[itemId];
  if (!item) throw new DomainError(TaskErrors.INBOX_ITEM_NOT_FOUND, `No inbox item ${itemId}`);
  if (item.status === 'claimed')
    throw new DomainError(
      TaskErrors.INBOX_ITEM_CLAIMED,
      `Inbox item ${itemId} was claimed by turn ${item.claimedBy?.turnId} step ${item.claimedBy?.step}`,
    );
  if (item.status === 'withdrawn')
    throw new DomainError(TaskErrors.INBOX_ITEM_WITHDRAWN, `Inbox item ${itemId} was withdrawn`);
  return item;
}

export function withdrawInboxItem(command: WithdrawInboxItem, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  const item = task.inbox[command.itemId];
  if (item?.status === 'withdrawn') return [];
  unclaimedItem(task, command.itemId);
  return [{ type: 'InboxItemWithdrawn', data: { itemId: command.itemId, by: command.by } }];
}

export function replaceInboxItem(command: ReplaceInboxItem, state: TaskState): TaskEvent[] {
  const item = unclaimedItem(notFinal(state), command.itemId);
  if (item.text === command.text && item.language === command.language) return [];
  const { itemId, text, language, by } = command;
  return [{ type: 'InboxItemReplaced', data: { itemId, text, language, by } }];
}

/**
 * A step claims before it builds its context, so a message that arrives during the model call is
 * left for the next step. A takeover of the same step finds the standing claim and reuses it.
 */
export function claimInboxItems(command: ClaimInboxItems, state: TaskState): TaskEvent[] {
  if (!Number.isInteger(command.step) || command.step < 1) invalid('step is a positive integer');
  const task = runnable(state);
  activeTurn(task, command.turnId);
  const { turnId, step } = command;
  const events: TaskEvent[] = [];
  if (!claimFor(task, turnId, step)) {
    const itemIds = unclaimedItems(task)
      .slice(0, MAX_ITEMS_PER_CLAIM)
      .map((i) => i.itemId);
    if (itemIds.length > 0) events.push({ type: 'InboxItemsClaimed', data: { turnId, step, itemIds } });
  }
  // Open change notices are consumed by the step that is shown them, in the same append as the
  // claim. A separate event rather than ids inside InboxItemsClaimed: a step may consume notices
  // without claiming any message (InboxItemsClaimed needs at least one item), notices are not
  // released with the claims (the agent reads the artefact's latest content on demand anyway), and
  // inbox projections stay unaware of notices. Keyed by turn + step, so a takeover reuses it.
  if (noticesConsumedAt(task, turnId, step).length === 0) {
    const noticeIds = openNotices(task)
      .slice(0, MAX_NOTICES_PER_STEP)
      .map((n) => n.noticeId);
    if (noticeIds.length > 0) events.push({ type: 'ArtifactChangeNoticesConsumed', data: { turnId, step, noticeIds } });
  }
  return events;
}

/**
 * Releasing is bookkeeping that keeps messages from being lost, so it is allowed in any status,
 * stopped included, and for a turn that is no longer active.
 */
export function releaseClaims(command: ReleaseClaims, state: TaskState): TaskEvent[] {
  const task = existing(state);
  return standingClaims(task, command.turnId, command.step).map((claim) => ({
    type: 'InboxItemsReleased',
    data: { turnId: claim.turnId, step: claim.step, itemIds: [...claim.itemIds], reason: command.reason },
  }));
}
