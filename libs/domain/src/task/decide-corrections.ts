import { DomainError } from '../decider';
import type { AcceptMerge, MergeInto, MoveMessageOut, UpdateTaskSummary } from './task-commands';
import { TaskErrors } from './task-errors';
import type { TaskEvent } from './task-events';
import { existing, invalid, noActiveTurn } from './task-guards';
import { unclaimedItems } from './task-queries';
import type { TaskState } from './task-state';

/** TasksMerged carries at most this many item ids (its contract); a bigger inbox is refused, not cut. */
export const MAX_MERGED_ITEMS = 1000;
const MAX_SUMMARY = 1000;

/** The note the target's agent reads with a moved or merged message. */
export function moveNote(sourceTaskId: string, how: 'moved' | 'merged', consumedThere: boolean): string {
  if (how === 'merged') return `Merged here from task ${sourceTaskId}; it had not been read there.`;
  return consumedThere
    ? `Moved here by the person from task ${sourceTaskId}, where it was already read; this is a copy.`
    : `Moved here by the person from task ${sourceTaskId}; it had not been read there.`;
}

/**
 * The latest summary stands; the same one again is a no-op. A summary may follow any status (a
 * stopped or completed task is still a routing candidate for "reopen"), except that an archived
 * task keeps what it had: a summary of a turn that closed before the archive arrives late and is
 * dropped as a no-op rather than refused, so the runtime's hook needs no special case.
 */
export function updateTaskSummary(command: UpdateTaskSummary, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (!/\S/.test(command.summary) || command.summary.length > MAX_SUMMARY)
    invalid(`A summary is 1 to ${MAX_SUMMARY} characters, not blank`);
  if (task.summary === command.summary || task.status === 'archived') return [];
  const data = {
    summary: command.summary,
    ...(command.turnId !== undefined ? { turnId: command.turnId } : {}),
    by: command.by,
  };
  return [{ type: 'TaskSummaryUpdated', data }];
}

/**
 * The source side of a move. The same move again is a no-op, checked before anything else (a
 * rerun repairing a half-done move must get through); a move of the same item elsewhere is
 * refused: the message lives in the first target now. An unconsumed item (delivered, or released
 * by a step that never committed) leaves the inbox; a consumed one (its claiming step committed)
 * stays as history and the target gets a copy. A claim whose step has not committed is refused
 * like a withdrawal (INBOX_ITEM_CLAIMED): the step may still read it. An archived source is closed.
 */
export function moveMessageOut(command: MoveMessageOut, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (command.toTaskId === task.taskId)
    throw new DomainError(TaskErrors.MOVE_TO_SAME_TASK, `Message ${command.itemId} is in task ${task.taskId} already`);
  const item = task.inbox[command.itemId];
  if (!item) throw new DomainError(TaskErrors.INBOX_ITEM_NOT_FOUND, `No inbox item ${command.itemId}`);
  if (item.movedTo !== null) {
    if (item.movedTo.taskId === command.toTaskId) return [];
    throw new DomainError(TaskErrors.ALREADY_MOVED, `Message ${command.itemId} was moved to another task already`);
  }
  if (task.status === 'archived') throw new DomainError(TaskErrors.TASK_CLOSED, `Task ${task.taskId} is archived`);
  if (item.status === 'withdrawn')
    throw new DomainError(TaskErrors.INBOX_ITEM_WITHDRAWN, `Inbox item ${command.itemId} was withdrawn`);
  if (item.status === 'claimed' && command.claimCommitted !== true)
    throw new DomainError(
      TaskErrors.INBOX_ITEM_CLAIMED,
      `Inbox item ${command.itemId} is claimed by turn ${item.claimedBy?.turnId} step ${item.claimedBy?.step}, not yet committed`,
    );
  const { itemId, toTaskId, by } = command;
  return [
    {
      type: 'MessageMoved',
      data: { itemId, messageId: item.messageId, toTaskId, consumed: item.status === 'claimed', by },
    },
  ];
}

/**
 * The source side of a merge: its open (delivered, unclaimed) items move to the target, then it is
 * archived with a pointer, in one append. Refused while a turn is active, as archiving is (the
 * safer choice: cancelling a running turn is the person's stop, not a side effect of a merge).
 * The same merge again is a no-op; a merge into another task after one is refused.
 */
export function mergeInto(command: MergeInto, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (command.targetTaskId === task.taskId)
    throw new DomainError(TaskErrors.MERGE_INTO_SELF, `Task ${task.taskId} cannot be merged into itself`);
  if (task.mergedInto !== null) {
    if (task.mergedInto === command.targetTaskId) return [];
    throw new DomainError(TaskErrors.ALREADY_MERGED, `Task ${task.taskId} was merged into another task already`);
  }
  if (task.status === 'archived') throw new DomainError(TaskErrors.TASK_CLOSED, `Task ${task.taskId} is archived`);
  noActiveTurn(task, 'merge');
  const movedItemIds = unclaimedItems(task).map((i) => i.itemId);
  if (movedItemIds.length > MAX_MERGED_ITEMS)
    invalid(`Task ${task.taskId} has ${movedItemIds.length} open messages; a merge moves at most ${MAX_MERGED_ITEMS}`);
  const { targetTaskId, by } = command;
  return [
    { type: 'TasksMerged', data: { sourceTaskId: task.taskId, targetTaskId, role: 'source', movedItemIds, by } },
    { type: 'TaskArchived', data: { by: { kind: 'user', userId: by }, mergedInto: targetTaskId } },
  ];
}

/**
 * The target side of a merge: one TasksMerged, then one delivery per moved item not already here.
 * Accepting the same source again is a no-op (checked first, so a rerun after a crash gets through
 * even if the target stopped meanwhile); a new merge into a stopped, completed or archived task is
 * refused like any new message to it.
 */
export function acceptMerge(command: AcceptMerge, state: TaskState): TaskEvent[] {
  const task = existing(state);
  if (command.sourceTaskId === task.taskId)
    throw new DomainError(TaskErrors.MERGE_INTO_SELF, `Task ${task.taskId} cannot be merged into itself`);
  if (task.mergedFrom.includes(command.sourceTaskId)) return [];
  if (task.status === 'stopped') throw new DomainError(TaskErrors.TASK_STOPPED, `Task ${task.taskId} was stopped`);
  if (task.status === 'completed' || task.status === 'archived')
    throw new DomainError(TaskErrors.TASK_CLOSED, `Task ${task.taskId} is ${task.status}`);
  if (command.items.length > MAX_MERGED_ITEMS) invalid(`A merge moves at most ${MAX_MERGED_ITEMS} messages`);
  const seen = new Set<string>();
  const fresh = command.items.filter((i) => {
    if (task.inbox[i.itemId] || seen.has(i.itemId)) return false;
    seen.add(i.itemId);
    return true;
  });
  const { sourceTaskId, by } = command;
  const note = moveNote(sourceTaskId, 'merged', false);
  return [
    {
      type: 'TasksMerged',
      data: { sourceTaskId, targetTaskId: task.taskId, role: 'target', movedItemIds: fresh.map((i) => i.itemId), by },
    },
    ...fresh.map((i): TaskEvent => ({
      type: 'MessageDeliveredToInbox',
      data: {
        itemId: i.itemId,
        messageId: i.itemId,
        text: i.text,
        language: i.language,
        movedFrom: { taskId: sourceTaskId, note, consumedThere: false },
      },
    })),
  ];
}
