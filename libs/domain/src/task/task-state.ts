import type { Actor, EventDataMap } from '@lomo/contracts';

export type TaskKind = EventDataMap['TaskCreated']['kind'];
export type AutonomyLevel = EventDataMap['AutonomyChanged']['level'];
export type ChecklistItemStatus = EventDataMap['ChecklistItemChanged']['status'];

/**
 * An inbox item is `delivered` until a step claims it. A claim stands for good once its step
 * commits (the turn stream records the consumption); a claim of a step that never commits is
 * released and the item is `delivered` again. `withdrawn` is final.
 */
export type InboxItemStatus = 'delivered' | 'claimed' | 'withdrawn';

export interface InboxItem {
  itemId: string;
  messageId: string;
  text: string;
  language: string;
  status: InboxItemStatus;
  /** Set while claimed: the turn and step that claimed it. */
  claimedBy: { turnId: string; step: number } | null;
  /** How many times the person replaced the text before it was claimed. */
  replacements: number;
}

export interface InboxClaim {
  turnId: string;
  step: number;
  itemIds: readonly string[];
  released: boolean;
}

export type CheckpointKind = EventDataMap['CheckpointOpened']['kind'];
export type CheckpointDecision = EventDataMap['CheckpointResolved']['decision'];

export interface Checkpoint {
  checkpointId: string;
  turnId: string;
  kind: CheckpointKind;
  callId: string | null;
  question: string;
  resolution: { decision: CheckpointDecision; answer: string | null; resolvedBy: string } | null;
}

/**
 * A recorded decision about one tool call: only `approve` authorizes, and only that call id. A
 * resolution the agent recorded itself never gets here (libs/domain/src/task/task-evolve.ts).
 */
export interface CallApproval {
  callId: string;
  checkpointId: string;
  decision: 'approve' | 'reject';
  resolvedBy: string;
}

export interface ChecklistItem {
  itemId: string;
  title: string;
  dependsOn: readonly string[];
  status: ChecklistItemStatus;
  note: string | null;
}

export interface TaskBody {
  taskId: string;
  kind: TaskKind;
  goal: string;
  /** The language of the person's own words; the agent replies in it. */
  language: string;
  originMessageId: string;
  /** Keyed by item id, in delivery order. */
  inbox: Readonly<Record<string, InboxItem>>;
  /** Keyed by `claimKey(turnId, step)`; the latest claim for that turn and step. */
  claims: Readonly<Record<string, InboxClaim>>;
  /** The task's one active turn (TurnOpened .. TurnClosed / TaskStopped). */
  activeTurnId: string | null;
  lastClosedTurn: { turnId: string; outcome: EventDataMap['TurnClosed']['outcome'] } | null;
  checkpoints: Readonly<Record<string, Checkpoint>>;
  /** Approvals and rejections by call id. */
  approvals: Readonly<Record<string, CallApproval>>;
  autonomy: AutonomyLevel;
  brief: { version: number; text: string } | null;
  checklist: readonly ChecklistItem[];
  budgets: readonly EventDataMap['PlanBudgetApproved'][];
  artifacts: Readonly<Record<string, number>>;
  stoppedBy: Actor | null;
  summary: string | null;
}

/**
 * `active` and `waiting` are the runnable statuses; `waiting` means a checkpoint is open. `paused`
 * keeps everything and runs nothing; `stopped`, `completed` and `archived` are final.
 */
export type TaskState =
  { status: 'none' } | (TaskBody & { status: 'active' | 'waiting' | 'paused' | 'stopped' | 'completed' | 'archived' });

export type TaskStatus = TaskState['status'];
export type ExistingTask = Extract<TaskState, { taskId: string }>;

export const initialTaskState = (): TaskState => ({ status: 'none' });

export const claimKey = (turnId: string, step: number) => `${turnId}#${step}`;
