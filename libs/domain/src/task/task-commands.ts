import type { Actor, EventDataMap } from '@lomo/contracts';

type Data<T extends keyof EventDataMap> = EventDataMap[T];

export type CreateTask = { type: 'CreateTask' } & Data<'TaskCreated'>;
/** The item id is the message id, so delivering the same message twice is a no-op. */
export type DeliverMessage = { type: 'DeliverMessage'; itemId: string; text: string; language: string };
export type WithdrawInboxItem = { type: 'WithdrawInboxItem' } & Data<'InboxItemWithdrawn'>;
export type ReplaceInboxItem = { type: 'ReplaceInboxItem' } & Data<'InboxItemReplaced'>;
/** Claims every delivered, unclaimed item (at most 100) for this step of the active turn. */
export type ClaimInboxItems = { type: 'ClaimInboxItems'; turnId: string; step: number };
/**
 * Releases this turn's claims of `step` and every later step: the caller passes the first step that
 * never committed (the turn's next step), since only the turn stream knows what committed.
 */
export type ReleaseClaims = {
  type: 'ReleaseClaims';
  turnId: string;
  step: number;
  reason: Data<'InboxItemsReleased'>['reason'];
};
export type OpenTurn = { type: 'OpenTurn' } & Data<'TurnOpened'>;
export type CloseTurn = { type: 'CloseTurn' } & Data<'TurnClosed'>;
export type OpenCheckpoint = {
  type: 'OpenCheckpoint';
  checkpointId: string;
  turnId: string;
  kind: Data<'CheckpointOpened'>['kind'];
  callId?: string;
  question: string;
};
export type ResolveCheckpoint = {
  type: 'ResolveCheckpoint';
  checkpointId: string;
  decision: Data<'CheckpointResolved'>['decision'];
  /** Required for approval checkpoints and must equal the checkpoint's call id. */
  callId?: string;
  answer?: string;
  resolvedBy: string;
};
export type PauseTask = { type: 'PauseTask'; by: Actor; reason?: string };
export type ResumeTask = { type: 'ResumeTask'; by: Actor };
/** When a turn is active it must already be cancelled on its turn stream and named here. */
export type StopTask = { type: 'StopTask'; by: Actor; reason?: string; cancelledTurnId?: string };
export type CompleteTask = { type: 'CompleteTask'; summary?: string };
export type ArchiveTask = { type: 'ArchiveTask'; by: Actor };
export type ChangeAutonomy = { type: 'ChangeAutonomy' } & Data<'AutonomyChanged'>;
export type UpgradeTask = { type: 'UpgradeTask'; reason: string };
export type UpdateBrief = { type: 'UpdateBrief'; brief: string; by: Actor };
export type PlanChecklist = { type: 'PlanChecklist' } & Data<'ChecklistPlanned'>;
export type ChangeChecklistItem = { type: 'ChangeChecklistItem' } & Data<'ChecklistItemChanged'>;
export type ApprovePlanBudget = { type: 'ApprovePlanBudget' } & Data<'PlanBudgetApproved'>;
export type NoticeArtifactChange = { type: 'NoticeArtifactChange' } & Data<'ArtifactChangeNoticed'>;

export type TaskCommand =
  | CreateTask
  | DeliverMessage
  | WithdrawInboxItem
  | ReplaceInboxItem
  | ClaimInboxItems
  | ReleaseClaims
  | OpenTurn
  | CloseTurn
  | OpenCheckpoint
  | ResolveCheckpoint
  | PauseTask
  | ResumeTask
  | StopTask
  | CompleteTask
  | ArchiveTask
  | ChangeAutonomy
  | UpgradeTask
  | UpdateBrief
  | PlanChecklist
  | ChangeChecklistItem
  | ApprovePlanBudget
  | NoticeArtifactChange;
