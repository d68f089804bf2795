import type { EventDataMap } from '@lomo/contracts';
import type { ProjectionDocument } from '../engine/projection-definition';

export type TaskStatus = EventDataMap['TaskCardShown']['status'];
export type TaskKind = EventDataMap['TaskCreated']['kind'];
type CheckpointOpenedData = EventDataMap['CheckpointOpened'];
type ChecklistItemChangedData = EventDataMap['ChecklistItemChanged'];

/** A checklist item as the task decider folds it: a re-plan keeps same-id items' status and evidence. */
export type TaskChecklistItem = {
  itemId: string;
  title: string;
  dependsOn: string[];
  status: ChecklistItemChangedData['status'];
  note: string | null;
  evidence: NonNullable<ChecklistItemChangedData['evidence']> | null;
  needsConfirmation: boolean;
  /** What the item delivers, when the plan says. */
  output: NonNullable<EventDataMap['ChecklistPlanned']['items'][number]['output']> | null;
  /** Artefacts made or used for the item; kept across status changes and re-plans. */
  linkedArtifactIds: string[];
};

/** A checkpoint card, open (`resolution` null) or decided by the person. */
export type TaskCheckpoint = {
  checkpointId: string;
  turnId: string;
  kind: CheckpointOpenedData['kind'];
  callId: string | null;
  question: string;
  itemId: string | null;
  options: Array<{ optionId: string; label: string }>;
  /** An approval of a paid call: the quote it showed. */
  callQuote: NonNullable<CheckpointOpenedData['callQuote']> | null;
  /** A budget card: the plan's paid items and their total. */
  planQuote: NonNullable<CheckpointOpenedData['planQuote']> | null;
  openedAt: string;
  resolution: {
    decision: EventDataMap['CheckpointResolved']['decision'];
    note: string | null;
    choice: string | null;
    resolvedBy: string;
    resolvedAt: string;
  } | null;
};

export type TurnActivityStatus = 'queued' | 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';

/** What one turn contributes to its task's document (written only by that turn's stream). */
export type TurnActivity = {
  status: TurnActivityStatus;
  steps: number;
  lastActivityAt: string;
};

/**
 * `tasks`: one document per task, `_id` = taskId. Fields from `task-<id>` unless marked; a turn
 * event can arrive before the task's own TaskCreated (streams are not ordered among themselves),
 * so until then the document exists with `created: false` and readers skip it.
 */
export type TaskDocument = ProjectionDocument & {
  /** TaskCreated applied. Readers list only created tasks. */
  created: boolean;
  goal: string | null;
  kind: TaskKind | null;
  /** The runtime's routing summary (the latest TaskSummaryUpdated); null until the first. */
  summary: string | null;
  /** The task this one was merged into (TasksMerged as source, TaskArchived.mergedInto). */
  mergedInto: string | null;
  /** active | waiting (a checkpoint is open) | paused | stopped | completed | archived. */
  status: TaskStatus | null;
  language: string | null;
  originMessageId: string | null;
  createdAt: string | null;
  /** The task's one active turn (TurnOpened .. TurnClosed / TaskStopped). */
  activeTurnId: string | null;
  /** Derived from `checkpoints`: the ones not resolved yet. */
  openCheckpoints: number;
  /** The approved direction (BriefUpdated), null before the first. */
  brief: { version: number; text: string } | null;
  /** The plan (ChecklistPlanned, then ChecklistItemChanged), empty before one. */
  checklist: TaskChecklistItem[];
  /** Every checkpoint in the order it opened. An agent's own resolution resolves nothing. */
  checkpoints: TaskCheckpoint[];
  /** AutonomyChanged; `assisted` before any (the task decider's default). */
  autonomy: EventDataMap['AutonomyChanged']['level'];
  /**
   * PlanBudgetApproved and approved budget cards (the task decider's rule: the card's total is the
   * plan's budget), once per budget id, in approval order.
   */
  planBudgets: Array<{
    budgetId: string;
    amountMinor: number;
    currency: string;
    approvedBy: string;
    checkpointId?: string;
    approvedAt?: string;
  }>;
  /** `moved`: unread items the person moved (or a merge took) to another task; they left this inbox. */
  inbox: { pending: number; claimed: number; withdrawn: number; moved: number };
  /** The runtime's last continuation decision after a turn (ContinuationDecided), null before one. */
  lastContinuation: Omit<EventDataMap['ContinuationDecided'], 'itemsDone'> | null;
  /** TurnOpened events so far. */
  turnsOpened: number;
  /** Time of the latest task-stream event. */
  taskActivityAt: string | null;
  /** Per turn, keyed by turnId; each entry written only by `turn-<turnId>`. */
  turnActivity: { [turnId: string]: TurnActivity };
  /** Derived: the counts readers show. */
  counts: {
    inboxPending: number;
    inboxClaimed: number;
    inboxWithdrawn: number;
    inboxMoved: number;
    turns: number;
    steps: number;
  };
  /** Derived: latest of taskActivityAt and every turn's lastActivityAt; the list's sort key. */
  lastActivityAt: string | null;
  /** Derived: the active turn with what its stream says about it. */
  activeTurn: { turnId: string; status: TurnActivityStatus | null; steps: number } | null;
  /**
   * Set on an operator's fork (ForkedFrom, issue 20): the task it was copied from and where, and
   * the tools an operator armed (ToolsArmed; a fork's other tools are stubbed). Null otherwise.
   */
  forkOf: { taskId: string; revision: number; position: string; armedTools: 'all' | string[] } | null;
};
