/** Refusal codes of the task decider (DomainError.code); callers match on these, never on messages. */
export const TaskErrors = {
  TASK_NOT_FOUND: 'TASK_NOT_FOUND',
  TASK_ALREADY_EXISTS: 'TASK_ALREADY_EXISTS',
  TASK_STOPPED: 'TASK_STOPPED',
  TASK_CLOSED: 'TASK_CLOSED',
  TASK_PAUSED: 'TASK_PAUSED',
  TASK_NOT_PAUSED: 'TASK_NOT_PAUSED',
  TURN_ALREADY_ACTIVE: 'TURN_ALREADY_ACTIVE',
  TURN_NOT_ACTIVE: 'TURN_NOT_ACTIVE',
  TURN_STILL_ACTIVE: 'TURN_STILL_ACTIVE',
  INBOX_ITEM_NOT_FOUND: 'INBOX_ITEM_NOT_FOUND',
  INBOX_ITEM_CLAIMED: 'INBOX_ITEM_CLAIMED',
  INBOX_ITEM_WITHDRAWN: 'INBOX_ITEM_WITHDRAWN',
  CHECKPOINT_NOT_FOUND: 'CHECKPOINT_NOT_FOUND',
  CHECKPOINT_CONFLICT: 'CHECKPOINT_CONFLICT',
  CHECKPOINT_ALREADY_RESOLVED: 'CHECKPOINT_ALREADY_RESOLVED',
  CALL_ID_MISMATCH: 'CALL_ID_MISMATCH',
  INVALID_DECISION: 'INVALID_DECISION',
  INVALID_COMMAND: 'INVALID_COMMAND',
  NOT_UPGRADABLE: 'NOT_UPGRADABLE',
  CHECKLIST_ITEM_NOT_FOUND: 'CHECKLIST_ITEM_NOT_FOUND',
  /** Evidence of another kind than the item declared it delivers (an artefact, media jobs, a decision). */
  EVIDENCE_MISMATCH: 'EVIDENCE_MISMATCH',
  /** A history segment id written with other text, or superseding a segment no longer shown. */
  SEGMENT_CONFLICT: 'SEGMENT_CONFLICT',
  /** A message moved to the task it is already in. */
  MOVE_TO_SAME_TASK: 'MOVE_TO_SAME_TASK',
  /** The message was moved to another task already; move it from there. */
  ALREADY_MOVED: 'ALREADY_MOVED',
  /** The target holds this message already, not by this move (e.g. moving it back where it was). */
  MESSAGE_ALREADY_IN_TASK: 'MESSAGE_ALREADY_IN_TASK',
  /** A task merged into itself. */
  MERGE_INTO_SELF: 'MERGE_INTO_SELF',
  /** The task was merged into another task already. */
  ALREADY_MERGED: 'ALREADY_MERGED',
  /** Arming tools of a task that is no fork (a task that is not a fork runs its tools anyway). */
  NOT_A_FORK: 'NOT_A_FORK',
  /** A fork recorded on a task that is already this fork. */
  ALREADY_FORKED: 'ALREADY_FORKED',
} as const;

export type TaskErrorCode = (typeof TaskErrors)[keyof typeof TaskErrors];
