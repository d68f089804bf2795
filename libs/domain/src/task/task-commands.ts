import type { Actor, ArtifactAuthor } from '@lomo/contracts';
import type { WakeReason } from '../turn/turn-state';
import type {
  AutonomyLevel,
  CheckpointDecision,
  CheckpointKind,
  ChecklistEvidence,
  ChecklistItemOutput,
  ChecklistItemStatus,
  HistorySegment,
  InboxChannel,
  LoadableDomain,
  PlanQuote,
  ClaimReleaseReason,
  ContinuationDecision,
  ContinuationReason,
  ProgressKind,
  TaskKind,
  TurnCloseOutcome,
} from './task-state';

// Commands spell out their own fields rather than reusing an event's data, so a change of an
// event's schema shows up in the decider that maps a command to it, not silently in the command.

export type CreateTask = {
  type: 'CreateTask';
  /** Derived from the origin message id, so creating from the same message again is a no-op. */
  taskId: string;
  kind: TaskKind;
  goal: string;
  language: string;
  originMessageId: string;
};
/**
 * The item id is the message id, so delivering the same message twice is a no-op. `movedFrom` is
 * set on the target side of a move (the copy or the moved message) and by a merge.
 */
export type DeliverMessage = {
  type: 'DeliverMessage';
  itemId: string;
  text: string;
  language: string;
  movedFrom?: { taskId: string; note: string; consumedThere: boolean };
  /** How the message came in; `api` is an integration's (see MessageDeliveredToInbox). */
  channel?: InboxChannel;
  /** The person who sent the message (whose memory may be recalled for it). */
  from?: string;
};
/** `by` is the user id of the person withdrawing their message. */
export type WithdrawInboxItem = { type: 'WithdrawInboxItem'; itemId: string; by: string };
export type ReplaceInboxItem = { type: 'ReplaceInboxItem'; itemId: string; text: string; language: string; by: string };
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
  reason: ClaimReleaseReason;
};
export type OpenTurn = { type: 'OpenTurn'; turnId: string; reason: WakeReason };
export type CloseTurn = { type: 'CloseTurn'; turnId: string; outcome: TurnCloseOutcome };
export type OpenCheckpoint = {
  type: 'OpenCheckpoint';
  checkpointId: string;
  turnId: string;
  kind: CheckpointKind;
  callId?: string;
  question: string;
  /** A review's checklist item; it must be in the plan. */
  itemId?: string;
  options?: readonly { optionId: string; label: string }[];
  /** An approval: the sha-256 of the call as the card shows it. */
  argumentsHash?: string;
  /** A paid call's approval: the quote it shows. */
  callQuote?: { quoteId: string; amountMinor: number; currency: string };
  /** A budget card: the plan's paid work and its total. */
  planQuote?: PlanQuote;
};
export type ResolveCheckpoint = {
  type: 'ResolveCheckpoint';
  checkpointId: string;
  decision: CheckpointDecision;
  /** Required for approval checkpoints and must equal the checkpoint's call id. */
  callId?: string;
  answer?: string;
  /** With `choose`: one of the card's option ids. */
  choice?: string;
  resolvedBy: string;
};
export type PauseTask = { type: 'PauseTask'; by: Actor; reason?: string };
export type ResumeTask = { type: 'ResumeTask'; by: Actor };
/** When a turn is active it must already be cancelled on its turn stream and named here. */
export type StopTask = { type: 'StopTask'; by: Actor; reason?: string; cancelledTurnId?: string };
export type CompleteTask = { type: 'CompleteTask'; summary?: string };
export type ArchiveTask = { type: 'ArchiveTask'; by: Actor };
export type ChangeAutonomy = { type: 'ChangeAutonomy'; level: AutonomyLevel; by: string };
export type UpgradeTask = { type: 'UpgradeTask'; reason: string; by: Actor };
/** The runtime's routing summary after a turn; the same summary again is a no-op. */
export type UpdateTaskSummary = { type: 'UpdateTaskSummary'; summary: string; turnId?: string; by: Actor };
/**
 * The source side of moving a message to another task; `by` is the person's user id.
 * `claimCommitted` is what the caller read on the claiming turn's stream: the step that claimed
 * the item committed (consumed it). Only the turn stream knows, as for ReleaseClaims.
 */
export type MoveMessageOut = {
  type: 'MoveMessageOut';
  itemId: string;
  toTaskId: string;
  by: string;
  claimCommitted?: boolean;
};
/** The source side of a merge: its open inbox items move, then it is archived with a pointer. */
export type MergeInto = { type: 'MergeInto'; targetTaskId: string; by: string };
/** The target side of a merge: the source's moved items arrive, each once. */
export type AcceptMerge = {
  type: 'AcceptMerge';
  sourceTaskId: string;
  items: readonly { itemId: string; text: string; language: string }[];
  by: string;
};
/** `callId`: the agent's tool call that wrote it (the brief's provenance, for a forgetting). */
export type UpdateBrief = { type: 'UpdateBrief'; brief: string; by: Actor; callId?: string };
/**
 * Item ids are unique and every `dependsOn` names an item of the same plan. `keepOutputs`: an
 * item sent without an output keeps the one its id declared (the person's edit of titles and
 * order does not undo what the plan said each stage delivers).
 */
export type PlanChecklist = {
  type: 'PlanChecklist';
  keepOutputs?: boolean;
  /** The agent's tool call that planned it (the titles' provenance, for a forgetting). */
  callId?: string;
  items: readonly {
    itemId: string;
    title: string;
    dependsOn: readonly string[];
    needsConfirmation?: boolean;
    output?: ChecklistItemOutput;
  }[];
};
export type ChangeChecklistItem = {
  type: 'ChangeChecklistItem';
  itemId: string;
  status: ChecklistItemStatus;
  note?: string;
  /** Verified by the caller against the streams (the decider cannot read them). */
  evidence?: ChecklistEvidence;
  /** Artefacts the caller found behind the evidence (a job's output): linked to the item. */
  linkedArtifactIds?: readonly string[];
};
/** `amountMinor` in the currency's minor unit; `approvedBy` is a user id. */
export type ApprovePlanBudget = {
  type: 'ApprovePlanBudget';
  budgetId: string;
  amountMinor: number;
  currency: string;
  approvedBy: string;
};
/**
 * The fan-out's command: the task last saw `fromVersion` of the artefact, which is now at
 * `toVersion`. `noticeId` derives from (task, artefact, toVersion) so a repeated fan-out lands on
 * the same id; `nodes` and `summary` describe the whole span.
 */
export type NoticeArtifactChange = {
  type: 'NoticeArtifactChange';
  noticeId: string;
  artifactId: string;
  fromVersion: number;
  toVersion: number;
  by: ArtifactAuthor;
  nodes: readonly string[];
  summary: string;
};

/** The runtime's continuation decision for a turn that just closed (plan-continuation.ts decides it). */
export type RecordContinuation = {
  type: 'RecordContinuation';
  turnId: string;
  decision: ContinuationDecision;
  reason: ContinuationReason;
  progress: readonly ProgressKind[];
  autoTurns: number;
  turnsWithoutProgress: number;
  itemsDone: number;
};

/** The model asked for these domains (`tools.load`) at this step; already loaded ones are skipped. */
export type LoadToolDomains = {
  type: 'LoadToolDomains';
  domains: readonly LoadableDomain[];
  turnId: string;
  step: number;
};
/** At a compression boundary: the loaded domains the plan no longer needs. */
export type UnloadToolDomains = { type: 'UnloadToolDomains'; domains: readonly LoadableDomain[] };
/** A summary segment; `supersedes` names active segments it replaces (a merge, a correction). */
export type AppendHistorySegment = {
  type: 'AppendHistorySegment';
  segmentId: string;
  covers: HistorySegment['covers'];
  text: HistorySegment['text'];
  tokens: number;
  summarizer: HistorySegment['summarizer'];
  supersedes: readonly string[];
};
export type ExcludeHistorySegments = {
  type: 'ExcludeHistorySegments';
  segmentIds: readonly string[];
  reason: 'correction' | 'forgotten';
};
/** A forgetting's exclusions for this task, once per forgetting (libs/memory's cascade). */
export type ExcludeContext = {
  type: 'ExcludeContext';
  forgettingId: string;
  messageIds: readonly string[];
  steps: readonly { turnId: string; step: number }[];
  /** Tool calls of the excluded steps whose brief or checklist plan is left out. */
  calls?: readonly string[];
};
/** The person's constraints read from a claimed message (at most once per item). */
export type NoteConstraints = {
  type: 'NoteConstraints';
  itemId: string;
  turnId: string;
  step: number;
  constraints: readonly { constraintId: string; subject: string; statement: string; replaces?: string }[];
};

/**
 * Marks a task written as a copy of another as its fork (libs/operator/src/fork): decided on the
 * copy's state, after the copied events. Another fork of the same copy is refused.
 */
export type RecordFork = {
  type: 'RecordFork';
  sourceTaskId: string;
  sourceRevision: number;
  sourcePosition: string;
  atStep?: { turnId: string; step: number };
  turns: readonly { sourceTurnId: string; forkTurnId: string }[];
  cancelledTurnId?: string;
  by: string;
};

/** An operator arms tools of a fork (`all`: every tool); a tool armed already is not armed again. */
export type ArmTools = { type: 'ArmTools'; tools: 'all' | readonly string[]; by: string };

export type TaskCommand =
  | RecordFork
  | ArmTools
  | LoadToolDomains
  | UnloadToolDomains
  | AppendHistorySegment
  | ExcludeHistorySegments
  | ExcludeContext
  | NoteConstraints
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
  | UpdateTaskSummary
  | MoveMessageOut
  | MergeInto
  | AcceptMerge
  | UpdateBrief
  | PlanChecklist
  | ChangeChecklistItem
  | ApprovePlanBudget
  | NoticeArtifactChange
  | RecordContinuation;
