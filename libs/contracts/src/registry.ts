import { z } from 'zod';
import * as main from './events/main';
import * as task from './events/task';
import * as turn from './events/turn';
import * as artifact from './events/artifact';
import * as generation from './events/generation';
import * as account from './events/account';
import * as memory from './events/memory';
import * as operator from './events/operator';
import type { StreamCategory } from './streams';
import { deterministicUuid } from './ids';

/** One step of upcasting: data of `fromVersion` becomes data of `fromVersion + 1`. Pure. */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  type: string;
  category: StreamCategory;
  version: number;
  schema: S;
  meaning: string;
  /** upcasters[v] turns version v into v + 1 (index 0 unused). */
  upcasters: Readonly<Record<number, Upcaster>>;
  /** Earlier type names; stored events under them are read as this type (from version 1). */
  formerly?: readonly string[];
}

const def = <T extends string, S extends z.ZodType>(
  category: StreamCategory,
  type: T,
  schema: S,
  meaning: string,
  history: { version?: number; upcasters?: Record<number, Upcaster>; formerly?: string[] } = {},
): EventDefinition<S> & { type: T } => ({
  type,
  category,
  schema,
  meaning,
  version: history.version ?? 1,
  upcasters: history.upcasters ?? {},
  formerly: history.formerly,
});

/** Pure: v1 {artifactId, version, by: Actor} → v2 (see the definition below). */
export function upcastArtifactChangeNoticedV1(d: Record<string, unknown>): Record<string, unknown> {
  const version = typeof d.version === 'number' ? d.version : 1;
  const actor = (d.by ?? {}) as { kind?: string; userId?: string };
  const by =
    actor.kind === 'user' && typeof actor.userId === 'string'
      ? { kind: 'person', userId: actor.userId }
      : { kind: 'person', userId: 'unknown' };
  return {
    noticeId: deterministicUuid('lomo.artifact-notice.v1', `${String(d.artifactId)}:${version}`),
    artifactId: d.artifactId,
    fromVersion: version - 1,
    toVersion: version,
    by,
    nodes: [],
    summary: '',
  };
}

export const eventDefinitions = [
  // main-{workspaceId}.{userId}
  def('main', 'UserMessageReceived', main.UserMessageReceived, 'A person sent a message to Main.', {
    version: 2,
    // v1 predates channels: every message then came from the UI.
    upcasters: { 1: (d) => ({ ...d, channel: 'ui' }) },
  }),
  def('main', 'RoutingDecided', main.RoutingDecided, 'The router decided where a message belongs.'),
  def(
    'main',
    'ClarificationRequested',
    main.ClarificationRequested,
    'The router asked the person which work a message belongs to.',
    {
      version: 2,
      // v1 had no card id, reason or language, and options were {label, taskId?}: the card id
      // derives from the message (one card per message then), options route to their task or start anew.
      upcasters: {
        1: (d) => {
          const options = Array.isArray(d.options) ? (d.options as Array<Record<string, unknown>>) : [];
          return {
            ...d,
            cardId: deterministicUuid('lomo.card', String(d.messageId)),
            reason: 'ambiguous',
            language: 'en',
            options: options.map((o, i) => ({
              optionId: `o${i + 1}`,
              label: o.label,
              action: o.taskId === undefined ? 'new' : 'route',
              ...(o.taskId === undefined ? {} : { taskId: o.taskId }),
            })),
          };
        },
      },
    },
  ),
  def(
    'main',
    'ClarificationAnswered',
    main.ClarificationAnswered,
    'The person answered a clarification card; a card is answered once.',
  ),
  def('main', 'MainReplied', main.MainReplied, 'Main answered a message directly.'),
  def('main', 'TaskCardShown', main.TaskCardShown, 'A card for a task was shown in the main line.'),
  // receipt-{workspaceId}.{userId}.{messageId}
  def(
    'receipt',
    'MessageReceiptReserved',
    main.MessageReceiptReserved,
    "A client's message id was taken; a retried request returns the first result.",
  ),
  // task-{taskId}
  def('task', 'TaskCreated', task.TaskCreated, 'A task was created from a message.', {
    version: 2,
    // v1 called the originating message id "origin".
    upcasters: {
      1: ({ origin, ...rest }) => ({ ...rest, originMessageId: origin }),
    },
  }),
  def('task', 'TaskUpgraded', task.TaskUpgraded, 'A lightweight task became persistent.'),
  def('task', 'TaskSummaryUpdated', task.TaskSummaryUpdated, "The runtime's routing summary of the task changed."),
  def('task', 'MessageMoved', task.MessageMoved, 'The person moved a message from this task to another.'),
  def('task', 'TasksMerged', task.TasksMerged, 'Two tasks were merged; the source is archived with a pointer.'),
  def('task', 'BriefUpdated', task.BriefUpdated, 'The task brief got a new version.'),
  def('task', 'ChecklistPlanned', task.ChecklistPlanned, 'The task checklist was planned.'),
  def('task', 'ChecklistItemChanged', task.ChecklistItemChanged, 'A checklist item changed status.'),
  def('task', 'MessageDeliveredToInbox', task.MessageDeliveredToInbox, "A message was delivered to the task's inbox."),
  def('task', 'InboxItemWithdrawn', task.InboxItemWithdrawn, 'The person withdrew an unclaimed inbox item.'),
  def('task', 'InboxItemReplaced', task.InboxItemReplaced, 'The person replaced the text of an unclaimed inbox item.'),
  def('task', 'InboxItemsClaimed', task.InboxItemsClaimed, 'A step of a turn claimed inbox items.'),
  def('task', 'InboxItemsReleased', task.InboxItemsReleased, 'Claims of a step that never committed were released.'),
  def('task', 'TurnOpened', task.TurnOpened, 'The task opened its one active turn.'),
  def('task', 'TurnClosed', task.TurnClosed, "The task's active turn ended."),
  def(
    'task',
    'ContinuationDecided',
    task.ContinuationDecided,
    'After a completed turn, the runtime decided whether to go on by itself, and why.',
  ),
  def('task', 'CheckpointOpened', task.CheckpointOpened, 'The task asks the person (approval, question or review).'),
  def('task', 'CheckpointResolved', task.CheckpointResolved, 'The person resolved a checkpoint.'),
  def('task', 'AutonomyChanged', task.AutonomyChanged, "The task's autonomy level changed."),
  def('task', 'PlanBudgetApproved', task.PlanBudgetApproved, 'The person approved a budget for paid work.'),
  def('task', 'TaskPaused', task.TaskPaused, 'The task was paused.'),
  def('task', 'TaskResumed', task.TaskResumed, 'The task was resumed.'),
  def('task', 'TaskStopped', task.TaskStopped, 'The task was stopped (its active turn cancelled first).'),
  def('task', 'TaskCompleted', task.TaskCompleted, 'The task reached its goal.'),
  def('task', 'TaskArchived', task.TaskArchived, 'The task was archived.'),
  def('task', 'ArtifactChangeNoticed', task.ArtifactChangeNoticed, 'An artefact the task uses changed.', {
    version: 2,
    // v1 named only the new version and an envelope actor: the span starts one below it, the
    // author becomes the person (a user actor) or is unknown beyond "someone", and nothing says
    // which nodes or what changed. The notice id derives from (artefact, version) as v1 had no
    // task in its data; it only has to be stable, not equal to a fan-out's id.
    upcasters: { 1: upcastArtifactChangeNoticedV1 },
  }),
  def(
    'task',
    'ArtifactChangeNoticeWidened',
    task.ArtifactChangeNoticeWidened,
    "A newer version widened the task's open notice of an artefact.",
  ),
  def(
    'task',
    'ArtifactChangeNoticesConsumed',
    task.ArtifactChangeNoticesConsumed,
    'A step was shown open change notices (appended with its claim).',
  ),
  def(
    'task',
    'ToolDomainsLoaded',
    task.ToolDomainsLoaded,
    'The model asked for tool domains; they are offered from the next step.',
  ),
  def(
    'task',
    'ToolDomainsUnloaded',
    task.ToolDomainsUnloaded,
    'Domains loaded on request were unloaded at a compression boundary.',
  ),
  def(
    'task',
    'HistorySegmentAppended',
    task.HistorySegmentAppended,
    'A span of the task history was summarized into a segment.',
  ),
  def(
    'task',
    'HistorySegmentsExcluded',
    task.HistorySegmentsExcluded,
    'History segments are no longer shown to the model.',
  ),
  def('task', 'ConstraintsNoted', task.ConstraintsNoted, "The person's constraints were read from a claimed message."),
  def(
    'task',
    'ContextExcluded',
    task.ContextExcluded,
    'A forgetting excluded messages and steps from the context of later steps, by provenance.',
  ),
  def(
    'task',
    'ForkedFrom',
    task.ForkedFrom,
    'An operator forked another task: this one is a copy of it up to a point, its tools stubbed until armed.',
  ),
  def('task', 'ToolsArmed', task.ToolsArmed, "An operator armed a fork's tools: calls to them run from now on."),
  // turn-{turnId}
  def('turn', 'TurnStarted', turn.TurnStarted, 'A turn was started for a task.'),
  def('turn', 'TurnLeased', turn.TurnLeased, 'A worker took the turn lease (generation rises on takeover).'),
  def('turn', 'TurnLeaseRenewed', turn.TurnLeaseRenewed, 'The lease holder renewed the lease.', {
    version: 2,
    formerly: ['TurnLeaseExtended'],
    // v1 ("TurnLeaseExtended") carried the new expiry as "expiresAt".
    upcasters: { 1: ({ expiresAt, ...rest }) => ({ ...rest, leaseUntil: expiresAt }) },
  }),
  def(
    'turn',
    'ModelStepCommitted',
    turn.ModelStepCommitted,
    'A model step was committed (reply, tool-call intents, consumed items).',
    {
      version: 2,
      // v1 stored usage with the OpenAI names.
      upcasters: {
        1: ({ usage, ...rest }) => {
          const u = (usage ?? {}) as { promptTokens?: number; completionTokens?: number };
          return { ...rest, usage: { inputTokens: u.promptTokens ?? 0, outputTokens: u.completionTokens ?? 0 } };
        },
      },
    },
  ),
  def('turn', 'ToolCallStarted', turn.ToolCallStarted, 'A tool call began (its idempotency key is the call id).'),
  def('turn', 'ToolCallCompleted', turn.ToolCallCompleted, 'A tool call finished with a result or an error.'),
  def(
    'turn',
    'ToolCallOutcomeUnknown',
    turn.ToolCallOutcomeUnknown,
    'A non-idempotent call started but its result was lost.',
  ),
  def('turn', 'TurnWaiting', turn.TurnWaiting, 'The turn waits on jobs, async calls or a checkpoint.'),
  def('turn', 'TurnResumed', turn.TurnResumed, 'A waiting turn was resumed.'),
  def('turn', 'TurnCompleted', turn.TurnCompleted, 'The turn completed.'),
  def('turn', 'TurnFailed', turn.TurnFailed, 'The turn failed.'),
  def('turn', 'TurnCancelled', turn.TurnCancelled, 'The turn was cancelled.'),
  // artifact-{artifactId}
  def('artifact', 'ArtifactCreated', artifact.ArtifactCreated, 'An artefact was created in the shared workspace.'),
  def(
    'artifact',
    'ArtifactRevised',
    artifact.ArtifactRevised,
    'An artefact got a new version (replaced, edited or restored).',
  ),
  def(
    'artifact',
    'FlowNodeRevised',
    artifact.FlowNodeRevised,
    "A flow node's params changed (the node's own version rises).",
  ),
  def(
    'artifact',
    'FlowStructureChanged',
    artifact.FlowStructureChanged,
    'Nodes or edges of a flow were added or removed.',
  ),
  def(
    'artifact',
    'ArtifactReferenced',
    artifact.ArtifactReferenced,
    'A task referenced the artefact (it is bound to that task).',
  ),
  def(
    'artifact',
    'ArtifactDeletionRequested',
    artifact.ArtifactDeletionRequested,
    'The person asked to delete the artefact; it waits for confirmation.',
  ),
  def(
    'artifact',
    'ArtifactDeleted',
    artifact.ArtifactDeleted,
    'The artefact was deleted after a recorded confirmation.',
  ),
  // generation-{jobId}
  def(
    'generation',
    'GenerationRequested',
    generation.GenerationRequested,
    'A paid media job was requested for one tool call (its first event is the uniqueness constraint).',
  ),
  def(
    'generation',
    'GenerationApprovalRequested',
    generation.GenerationApprovalRequested,
    "The quote needs a person's approval; a checkpoint was opened and nothing was sent upstream.",
  ),
  def(
    'generation',
    'GenerationSubmissionStarted',
    generation.GenerationSubmissionStarted,
    'A worker is about to send the paid request upstream (recorded once, before sending).',
  ),
  def(
    'generation',
    'GenerationSubmitted',
    generation.GenerationSubmitted,
    'The upstream accepted the job; its id is recorded once.',
  ),
  def(
    'generation',
    'GenerationProgressed',
    generation.GenerationProgressed,
    "The job's progress rose (coalesced ticks).",
  ),
  def(
    'generation',
    'GenerationCompleted',
    generation.GenerationCompleted,
    'The job finished and its result became an artefact.',
  ),
  def(
    'generation',
    'GenerationFailed',
    generation.GenerationFailed,
    'The job failed, was refused, cancelled or its outcome is unknown.',
  ),
  def(
    'generation',
    'GenerationCharged',
    generation.GenerationCharged,
    "The job's record of its charge on the account ledger.",
  ),
  def(
    'generation',
    'GenerationRefunded',
    generation.GenerationRefunded,
    "The job's record of its refund on the account ledger.",
  ),
  // memory-{workspaceId}.{userId}
  def(
    'memory',
    'MemoryEvidenceRecorded',
    memory.MemoryEvidenceRecorded,
    'A message or observation became evidence for memory.',
  ),
  def(
    'memory',
    'MemoryEvidenceCopied',
    memory.MemoryEvidenceCopied,
    "Another task (a fork) holds a copy of the evidence's message: a forgetting reaches it there too.",
  ),
  def(
    'memory',
    'MemoryExtractionRecorded',
    memory.MemoryExtractionRecorded,
    'Extraction from one piece of evidence decided each candidate, one by one.',
  ),
  def(
    'memory',
    'MemoryVersionCreated',
    memory.MemoryVersionCreated,
    'A memory got a new version, linked to its evidence.',
  ),
  def(
    'memory',
    'MemoryVersionConfirmed',
    memory.MemoryVersionConfirmed,
    'Later evidence confirmed a version (no new version).',
  ),
  def(
    'memory',
    'MemoryVersionSuperseded',
    memory.MemoryVersionSuperseded,
    'A memory version was refined or corrected.',
  ),
  def(
    'memory',
    'ForgettingRequested',
    memory.ForgettingRequested,
    'The person asked to forget; it waits for confirmation.',
  ),
  def('memory', 'ForgettingConfirmed', memory.ForgettingConfirmed, 'The person confirmed a forgetting.'),
  def(
    'memory',
    'ForgettingCancelled',
    memory.ForgettingCancelled,
    'The person cancelled a forgetting before confirming it.',
  ),
  def('memory', 'EvidenceRevoked', memory.EvidenceRevoked, 'Evidence may no longer support any memory.'),
  def(
    'memory',
    'MemoryVersionPurged',
    memory.MemoryVersionPurged,
    'A version that depended on revoked evidence; its text was deleted.',
  ),
  def(
    'memory',
    'MemoryEvidenceDetached',
    memory.MemoryEvidenceDetached,
    'A CONFIRM-only link to revoked evidence was removed.',
  ),
  def(
    'memory',
    'ExtractionSuppressed',
    memory.ExtractionSuppressed,
    'Claims that extraction from earlier evidence must not produce again.',
  ),
  def('memory', 'ProfileVersionPublished', memory.ProfileVersionPublished, 'A new version of the person profile.'),
  def(
    'memory',
    'ProfileVersionPurged',
    memory.ProfileVersionPurged,
    'An old profile body was deleted after a forgetting.',
  ),
  def(
    'memory',
    'EpisodeSummaryWritten',
    memory.EpisodeSummaryWritten,
    'A summary of what happened in a piece of work.',
  ),
  def(
    'memory',
    'EpisodeSummaryInvalidated',
    memory.EpisodeSummaryInvalidated,
    'A summary that relied on forgotten content was deleted.',
  ),
  def(
    'memory',
    'ForgettingCompleted',
    memory.ForgettingCompleted,
    'A forgetting cascade finished; its report says what it did.',
  ),
  // account-{workspaceId}
  def('account', 'QuoteIssued', account.QuoteIssued, 'A price was quoted for one generation job.'),
  def('account', 'QuoteApproved', account.QuoteApproved, 'A person approved a quote.'),
  def('account', 'BudgetApproved', account.BudgetApproved, 'A person approved a budget for paid work.'),
  def(
    'account',
    'LimitsSet',
    account.LimitsSet,
    'A person set the auto-approve limits and the time zone of the daily limit.',
  ),
  def('account', 'FundsReserved', account.FundsReserved, 'Money was held for one job before its submit.'),
  def(
    'account',
    'ReservationReleased',
    account.ReservationReleased,
    'A reservation that never reached submit was released.',
  ),
  def('account', 'JobCharged', account.JobCharged, "A submitted job's reservation became a charge."),
  def(
    'account',
    'JobRefunded',
    account.JobRefunded,
    'A charged job failed or its outcome is unknown: the charge was refunded.',
  ),
  // operator-{workspaceId}
  def(
    'operator',
    'OperatorActionRecorded',
    operator.OperatorActionRecorded,
    'An operator changed the system with the CLI or the inspector (import, redrive, rebuild).',
  ),
] as const;

export type EventType = (typeof eventDefinitions)[number]['type'];

const byType = new Map<string, EventDefinition>(eventDefinitions.map((d) => [d.type, d]));
const byFormerName = new Map<string, EventDefinition>(
  eventDefinitions.flatMap((d) => (d.formerly ?? []).map((name) => [name, d] as const)),
);

export const eventRegistry = {
  all: (): readonly EventDefinition[] => eventDefinitions,
  get: (type: string): EventDefinition | undefined => byType.get(type),
  /** Resolves current and former names (the latter only when reading). */
  resolve: (type: string): EventDefinition | undefined => byType.get(type) ?? byFormerName.get(type),
  has: (type: string) => byType.has(type),
};

/** Data type of each event, inferred from its schema. */
export type EventDataMap = { [D in (typeof eventDefinitions)[number] as D['type']]: z.infer<D['schema']> };
