import type { Actor, EventDataMap } from '@lomo/contracts';

export type TaskKind = EventDataMap['TaskCreated']['kind'];
export type AutonomyLevel = EventDataMap['AutonomyChanged']['level'];
export type ChecklistItemStatus = EventDataMap['ChecklistItemChanged']['status'];
export type ChecklistEvidence = NonNullable<EventDataMap['ChecklistItemChanged']['evidence']>;
export type ChecklistItemOutput = NonNullable<EventDataMap['ChecklistPlanned']['items'][number]['output']>;
export type PlanQuote = NonNullable<EventDataMap['CheckpointOpened']['planQuote']>;
export type CallQuote = NonNullable<EventDataMap['CheckpointOpened']['callQuote']>;
export type InboxChannel = NonNullable<EventDataMap['MessageDeliveredToInbox']['channel']>;
/** A domain the model can load (every domain but core, which is always offered). */
export type LoadableDomain = EventDataMap['ToolDomainsLoaded']['domains'][number];
/** Every tool domain: the loadable ones and core (always offered). */
export type ToolDomainName = LoadableDomain | 'core';
export type HistoryPoint = EventDataMap['HistorySegmentAppended']['covers']['from'];

/**
 * A summarized span of the task's history (HistorySegmentAppended): shown while it is neither
 * superseded by a later segment nor excluded. Its text is in the BlobStore by `text`.
 */
export interface HistorySegment {
  segmentId: string;
  covers: EventDataMap['HistorySegmentAppended']['covers'];
  text: EventDataMap['HistorySegmentAppended']['text'];
  tokens: number;
  summarizer: EventDataMap['HistorySegmentAppended']['summarizer'];
  supersedes: readonly string[];
  supersededBy: string | null;
  excluded: boolean;
}

/** A constraint the person stated; withdrawn once a later one on the same subject replaced it. */
export interface Constraint {
  constraintId: string;
  subject: string;
  statement: string;
  itemId: string;
  withdrawnBy: string | null;
}
export type ContinuationDecision = EventDataMap['ContinuationDecided']['decision'];
export type ContinuationReason = EventDataMap['ContinuationDecided']['reason'];
export type ProgressKind = EventDataMap['ContinuationDecided']['progress'][number];

/** The last continuation decision; `pending` until the turn it decided to start is opened. */
/**
 * `pending`: a turn is owed. `pendingBy` says who owes it: the runtime's own decision to go on
 * (opened as a `continuation` turn) or the person's resolution of a card after its turn closed
 * (opened as an `approval` turn, which starts a new run of automatic turns).
 */
export type Continuation = EventDataMap['ContinuationDecided'] & { pending: boolean; pendingBy: 'runtime' | 'person' };

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
  /**
   * Set once the person moved the message to another task (MessageMoved, or TasksMerged as its
   * source). Unconsumed, it left this inbox (status `withdrawn`); consumed, it stays as history.
   */
  movedTo: { taskId: string; consumed: boolean } | null;
  /** The person who sent it; null on deliveries recorded before senders were kept. */
  from: string | null;
  /** Set when the message arrived here by a move or a merge from another task. */
  movedFrom: { taskId: string; consumedThere: boolean } | null;
  /** How it came in: `api` is an integration's token (an external system), else the person. */
  channel: InboxChannel;
}

export interface InboxClaim {
  turnId: string;
  step: number;
  itemIds: readonly string[];
  released: boolean;
}

export type CheckpointKind = EventDataMap['CheckpointOpened']['kind'];
export type CheckpointDecision = EventDataMap['CheckpointResolved']['decision'];
export type ClaimReleaseReason = EventDataMap['InboxItemsReleased']['reason'];

export interface Checkpoint {
  checkpointId: string;
  turnId: string;
  kind: CheckpointKind;
  callId: string | null;
  question: string;
  /** The checklist item a review is about. */
  itemId: string | null;
  options: readonly { optionId: string; label: string }[];
  /** An approval: the sha-256 of the call as the card showed it. */
  argumentsHash: string | null;
  /** A paid call's approval: the quote it showed. */
  callQuote: CallQuote | null;
  /** A budget card: the plan's paid work and its total. */
  planQuote: PlanQuote | null;
  resolution: { decision: CheckpointDecision; answer: string | null; choice: string | null; resolvedBy: string } | null;
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
  evidence: ChecklistEvidence | null;
  /** The person reviews this stage before anything after it runs. */
  needsConfirmation: boolean;
  /** The latest review card about this item, if any (its state is in `checkpoints`). */
  reviewCheckpointId: string | null;
  /** What the item delivers, when the plan says (evidence must match it). */
  output: ChecklistItemOutput | null;
  /** Artefacts made or used for the item; kept across status changes and re-plans of its id. */
  linkedArtifactIds: string[];
  /** The agent's tool call whose plan gave it its title (ChecklistPlanned.callId); null when the person's. */
  plannedBy: string | null;
}

/**
 * Money the person approved for the task's plan: an `approvePlanBudget` (PlanBudgetApproved) or
 * the approval of a budget card (its budget id derives from the card, task-ids.ts).
 */
export interface PlanBudget {
  budgetId: string;
  amountMinor: number;
  currency: string;
  approvedBy: string;
  /** The budget card it was approved through, if any. */
  checkpointId: string | null;
}

/** What every existing task carries, whatever its status. */
export interface TaskBase {
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
  lastClosedTurn: { turnId: string; outcome: TurnCloseOutcome } | null;
  checkpoints: Readonly<Record<string, Checkpoint>>;
  /** Approvals and rejections by call id. */
  approvals: Readonly<Record<string, CallApproval>>;
  autonomy: AutonomyLevel;
  /** `callId`: the agent's tool call that wrote it (BriefUpdated.callId). */
  brief: { version: number; text: string; callId?: string } | null;
  checklist: readonly ChecklistItem[];
  budgets: readonly PlanBudget[];
  /**
   * Who the latest instruction the task's steps claimed came from: `integration` when a claim
   * held a message an integration's token sent (DESIGN.md §5: its paid work is confirmed call by
   * call), `person` otherwise; the origin message is the first claimed.
   */
  directedBy: 'person' | 'integration';
  /** The runtime's last continuation decision (plan-continuation.ts), null before the first. */
  continuation: Continuation | null;
  /** Per artefact: the highest version any change notice of this task reached. */
  artifacts: Readonly<Record<string, number>>;
  /** Change notices by notice id; at most one open per artefact (see decide-plan.ts). */
  notices: Readonly<Record<string, ChangeNotice>>;
  /** The runtime's routing summary (latest TaskSummaryUpdated), null until the first one. */
  summary: string | null;
  /** The task this one was merged into (TasksMerged as source / TaskArchived.mergedInto). */
  mergedInto: string | null;
  /** Every turn opened, in order: the task's history is their steps. */
  turns: readonly string[];
  /** Domains the model asked for (`tools.load`) and not unloaded since. */
  loadedDomains: readonly LoadableDomain[];
  /** Where each loaded domain was (last) asked for: a compression unloads only what it covers. */
  domainLoads: Readonly<Partial<Record<LoadableDomain, HistoryPoint>>>;
  /** History segments in the order they were appended. */
  segments: readonly HistorySegment[];
  /** The person's constraints by id, in the order they were noted. */
  constraints: Readonly<Record<string, Constraint>>;
  /**
   * What forgettings excluded from later prompts by provenance (ContextExcluded): forgotten
   * messages by id, and steps (`{turnId}:{step}`) whose replies and tool results relied on them.
   */
  excluded: {
    readonly messageIds: readonly string[];
    readonly steps: readonly string[];
    /** Tool calls of excluded steps: a brief or checklist plan one of them wrote is left out of prompts. */
    readonly calls: readonly string[];
    readonly forgettings: readonly string[];
  };
  /** Tasks merged into this one (TasksMerged as target), so accepting a merge twice is a no-op. */
  mergedFrom: readonly string[];
  /** Set when this task is an operator's fork of another (ForkedFrom); null for every other task. */
  fork: ForkLineage | null;
}

/**
 * What a fork is a copy of, and which of its tools an operator armed: a fork's tool calls are
 * answered as stubbed and never run (libs/runtime/src/process/plan-ledger.ts) unless armed here.
 */
export interface ForkLineage {
  sourceTaskId: string;
  sourceRevision: number;
  sourcePosition: string;
  atStep: { turnId: string; step: number } | null;
  forkedBy: string;
  /** `all`, or the tool names armed so far (ToolsArmed accumulates). */
  armed: 'all' | readonly string[];
}

/**
 * One change notice: open until a step is shown it (`consumedBy`), widened while open. A step's
 * consumption is keyed by turn + step, like its claim.
 */
export interface ChangeNotice {
  noticeId: string;
  artifactId: string;
  fromVersion: number;
  toVersion: number;
  by: EventDataMap['ArtifactChangeNoticed']['by'];
  nodes: readonly string[];
  summary: string;
  consumedBy: { turnId: string; step: number } | null;
}

export type TurnCloseOutcome = EventDataMap['TurnClosed']['outcome'];

/**
 * Runnable with no checkpoint open. `activeTurnId` is the task's one active turn (TurnOpened ..
 * TurnClosed / TaskStopped), null between turns.
 */
export interface ActiveTask extends TaskBase {
  status: 'active';
  activeTurnId: string | null;
}

/**
 * Runnable with at least one checkpoint open (`isWaiting` in task-queries.ts is the rule). A
 * checkpoint is opened by the active turn, but that turn may end (cancelled, failed) while the
 * checkpoint stays open, so the active turn is optional here as well.
 */
export interface WaitingTask extends TaskBase {
  status: 'waiting';
  activeTurnId: string | null;
}

/**
 * Keeps everything and runs nothing. A pause decided while a turn is active keeps that turn
 * until the runtime closes it (libs/runtime/src/commands/interrupt-task.ts closes it in the same append).
 */
export interface PausedTask extends TaskBase {
  status: 'paused';
  activeTurnId: string | null;
}

/** Final: TaskStopped frees the turn slot for good and names who stopped it. */
export interface StoppedTask extends TaskBase {
  status: 'stopped';
  activeTurnId: null;
  stoppedBy: Actor;
}

/** Final: completing needs no active turn (decide-lifecycle.ts `completeTask`). */
export interface CompletedTask extends TaskBase {
  status: 'completed';
  activeTurnId: null;
  /** TaskCompleted's summary, when it gave one (the routing summary is TaskBase.summary). */
  completionSummary: string | null;
}

/**
 * Final: archiving needs no active turn. It may follow any status, so what the task ended with
 * before stays: the completion summary of a completed task, the actor of a stopped one (null otherwise).
 */
export interface ArchivedTask extends TaskBase {
  status: 'archived';
  activeTurnId: null;
  completionSummary: string | null;
  stoppedBy: Actor | null;
}

/** `active` and `waiting`: the statuses in which a turn may run or claim. */
export type RunnableTask = ActiveTask | WaitingTask;
/** Not final: runnable or paused. Only these hold an active turn. */
export type OpenTask = RunnableTask | PausedTask;
/** Stopped, completed or archived: nothing restarts it. */
export type FinalTask = StoppedTask | CompletedTask | ArchivedTask;
export type ExistingTask = OpenTask | FinalTask;

export type TaskState = { status: 'none' } | ExistingTask;

export type TaskStatus = TaskState['status'];

export const initialTaskState = (): TaskState => ({ status: 'none' });

export const claimKey = (turnId: string, step: number) => `${turnId}#${step}`;
