import type { Actor, EventEnvelope } from '@lomo/contracts';
import type { TimelineEntry, TimelineKind } from './inspection.types';

const KINDS: Readonly<Record<string, TimelineKind>> = {
  RoutingDecided: 'routing',
  TaskCreated: 'task',
  TaskUpgraded: 'task',
  TaskSummaryUpdated: 'task',
  MessageMoved: 'task',
  TasksMerged: 'task',
  AutonomyChanged: 'task',
  TaskPaused: 'task',
  TaskResumed: 'task',
  TaskStopped: 'task',
  TaskCompleted: 'task',
  TaskArchived: 'task',
  BriefUpdated: 'plan',
  ChecklistPlanned: 'plan',
  ChecklistItemChanged: 'plan',
  PlanBudgetApproved: 'plan',
  ConstraintsNoted: 'plan',
  MessageDeliveredToInbox: 'inbox',
  InboxItemWithdrawn: 'inbox',
  InboxItemReplaced: 'inbox',
  InboxItemsClaimed: 'inbox',
  InboxItemsReleased: 'inbox',
  TurnOpened: 'turn',
  TurnClosed: 'turn',
  TurnStarted: 'turn',
  TurnWaiting: 'turn',
  TurnResumed: 'turn',
  TurnCompleted: 'turn',
  TurnFailed: 'turn',
  TurnCancelled: 'turn',
  TurnLeased: 'lease',
  TurnLeaseRenewed: 'lease',
  ModelStepCommitted: 'step',
  ToolCallStarted: 'tool',
  ToolCallCompleted: 'tool',
  ToolCallOutcomeUnknown: 'tool',
  ToolDomainsLoaded: 'tool',
  ToolDomainsUnloaded: 'tool',
  CheckpointOpened: 'checkpoint',
  CheckpointResolved: 'checkpoint',
  ContinuationDecided: 'continuation',
  ContextExcluded: 'memory',
  HistorySegmentAppended: 'memory',
  HistorySegmentsExcluded: 'memory',
  ArtifactChangeNoticed: 'artifact',
  ArtifactChangeNoticeWidened: 'artifact',
  ArtifactChangeNoticesConsumed: 'artifact',
  GenerationRequested: 'generation',
  GenerationApprovalRequested: 'generation',
  GenerationSubmissionStarted: 'generation',
  GenerationSubmitted: 'generation',
  GenerationProgressed: 'generation',
  GenerationCompleted: 'generation',
  GenerationFailed: 'generation',
  GenerationCharged: 'money',
  GenerationRefunded: 'money',
  QuoteIssued: 'money',
  QuoteApproved: 'money',
  BudgetApproved: 'money',
  LimitsSet: 'money',
  FundsReserved: 'money',
  ReservationReleased: 'money',
  JobCharged: 'money',
  JobRefunded: 'money',
};

export const timelineKindOf = (type: string): TimelineKind => KINDS[type] ?? 'other';

export const actorLabel = (actor: Actor): string =>
  actor.kind === 'user' ? `user:${actor.userId}` : actor.kind === 'agent' ? 'agent' : `system:${actor.component}`;

const money = (amountMinor: unknown, currency: unknown) => `${String(amountMinor)} ${String(currency)} (minor units)`;
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type Data = Record<string, unknown>;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * One human line per event, built from ids, statuses, counts and amounts only: never a message,
 * reply, brief, prompt or result text, so a line never shows content that was forgotten.
 */
export function summarize(type: string, d: Data): string {
  switch (type) {
    case 'RoutingDecided':
      return `message ${String(d.messageId)} routed: ${String(d.outcome)} (${String(d.method)}, ${count(list(d.candidates).length, 'candidate')})`;
    case 'TaskCreated':
      return `task created (${String(d.kind)}) from message ${String(d.originMessageId)}`;
    case 'TaskUpgraded':
      return `upgraded from ${String(d.from)} to ${String(d.to)}`;
    case 'TaskSummaryUpdated':
      return 'routing summary updated';
    case 'MessageMoved':
      return `message ${String(d.messageId)} moved to task ${String(d.toTaskId)}${d.consumed === true ? ' (already consumed)' : ''}`;
    case 'TasksMerged':
      return `merge (${String(d.role)}): ${String(d.sourceTaskId)} into ${String(d.targetTaskId)}, ${count(list(d.movedItemIds).length, 'item')} moved`;
    case 'AutonomyChanged':
      return `autonomy set to ${String(d.level)}`;
    case 'TaskPaused':
      return 'task paused';
    case 'TaskResumed':
      return 'task resumed';
    case 'TaskStopped':
      return `task stopped${d.cancelledTurnId !== undefined ? `, turn ${String(d.cancelledTurnId)} cancelled` : ''}`;
    case 'TaskCompleted':
      return 'task completed';
    case 'TaskArchived':
      return `task archived${d.mergedInto !== undefined ? ` (merged into ${String(d.mergedInto)})` : ''}`;
    case 'BriefUpdated':
      return `brief version ${String(d.version)}`;
    case 'ChecklistPlanned':
      return `checklist planned: ${count(list(d.items).length, 'item')}`;
    case 'ChecklistItemChanged':
      return `checklist item ${String(d.itemId)}: ${String(d.status)}${d.evidence !== undefined ? ' (with evidence)' : ''}`;
    case 'PlanBudgetApproved':
      return `plan budget approved: ${money(d.amountMinor, d.currency)} by ${String(d.approvedBy)}`;
    case 'ConstraintsNoted':
      return `${count(list(d.constraints).length, 'constraint')} noted from item ${String(d.itemId)}`;
    case 'MessageDeliveredToInbox':
      return `message ${String(d.messageId)} delivered${d.from !== undefined ? ` from ${String(d.from)}` : ''}${d.movedFrom !== undefined ? ' (moved here)' : ''}`;
    case 'InboxItemWithdrawn':
      return `item ${String(d.itemId)} withdrawn by ${String(d.by)}`;
    case 'InboxItemReplaced':
      return `item ${String(d.itemId)} replaced by ${String(d.by)}`;
    case 'InboxItemsClaimed':
      return `${count(list(d.itemIds).length, 'item')} claimed by ${String(d.turnId)}#${String(d.step)}`;
    case 'InboxItemsReleased':
      return `${count(list(d.itemIds).length, 'item')} released by ${String(d.turnId)}#${String(d.step)} (${String(d.reason)})`;
    case 'TurnOpened':
      return `turn ${String(d.turnId)} opened (${String(d.reason)})`;
    case 'TurnClosed':
      return `turn ${String(d.turnId)} closed: ${String(d.outcome)}`;
    case 'TurnStarted':
      return `turn started (${String(d.reason)})`;
    case 'TurnLeased':
      return `leased by ${String(d.workerId)}, generation ${String(d.generation)}, until ${String(d.leaseUntil)}`;
    case 'TurnLeaseRenewed':
      return `lease renewed by ${String(d.workerId)}, generation ${String(d.generation)}, until ${String(d.leaseUntil)}`;
    case 'TurnWaiting': {
      const on = (d.on ?? {}) as Data;
      return `waiting on ${String(on.kind)}`;
    }
    case 'TurnResumed':
      return `turn resumed (${String(d.reason)})`;
    case 'TurnCompleted':
      return `turn completed after ${count(Number(d.steps), 'step')}`;
    case 'TurnFailed':
      return `turn failed: ${String((d.error as Data | undefined)?.code)}`;
    case 'TurnCancelled':
      return `turn cancelled (${String(d.reason)})`;
    case 'ModelStepCommitted':
      return `step ${String(d.step)} committed (${String(d.finishReason)}): ${count(list(d.toolCallIntents).length, 'tool call')}, ${count(list(d.consumedItemIds).length, 'item')} consumed`;
    case 'ToolCallStarted':
      return `${String(d.tool)} call ${String(d.callId)} started (attempt ${String(d.attempt)})`;
    case 'ToolCallCompleted':
      return `call ${String(d.callId)} ${d.status === 'ok' ? 'completed' : `failed: ${String((d.error as Data | undefined)?.code)}`}`;
    case 'ToolCallOutcomeUnknown':
      return `call ${String(d.callId)} outcome unknown (${String(d.reason)})`;
    case 'ToolDomainsLoaded':
      return `tool domains loaded: ${list(d.domains).join(', ')}`;
    case 'ToolDomainsUnloaded':
      return `tool domains unloaded: ${list(d.domains).join(', ')}`;
    case 'CheckpointOpened':
      return `${String(d.kind)} checkpoint ${String(d.checkpointId)} opened${d.callId !== undefined ? ` for call ${String(d.callId)}` : ''}`;
    case 'CheckpointResolved':
      return `checkpoint ${String(d.checkpointId)} resolved: ${String(d.decision)} by ${String(d.resolvedBy)}`;
    case 'ContinuationDecided':
      return `after turn ${String(d.turnId)}: ${String(d.decision)} (${String(d.reason)})`;
    case 'ContextExcluded':
      return `forgetting ${String(d.forgettingId)} excluded ${count(list(d.messageIds).length, 'message')} and ${count(list(d.steps).length, 'step')}`;
    case 'HistorySegmentAppended':
      return `history segment ${String(d.segmentId)} (${String(d.summarizer)})`;
    case 'HistorySegmentsExcluded':
      return `${count(list(d.segmentIds).length, 'history segment')} excluded (${String(d.reason)})`;
    case 'ArtifactChangeNoticed':
    case 'ArtifactChangeNoticeWidened':
      return `artefact ${String(d.artifactId ?? d.noticeId)} changed up to version ${String(d.toVersion)}`;
    case 'ArtifactChangeNoticesConsumed':
      return `${count(list(d.noticeIds).length, 'change notice')} shown to ${String(d.turnId)}#${String(d.step)}`;
    case 'GenerationRequested':
      return `generation job ${String(d.jobId)} requested (${String(d.provider)}, ${String(d.kind)}) for call ${String(d.callId)}`;
    case 'GenerationApprovalRequested':
      return `approval asked (${String(d.refusal)}), checkpoint ${String(d.checkpointId)}`;
    case 'GenerationSubmissionStarted':
      return 'submission started';
    case 'GenerationSubmitted':
      return `submitted upstream as ${String(d.upstreamJobId)}`;
    case 'GenerationProgressed':
      return `progress ${String(d.progress)}% (${String(d.status)}, by ${String(d.source)})`;
    case 'GenerationCompleted':
      return `completed: artefact ${String(d.artifactId)}`;
    case 'GenerationFailed':
      return `failed: ${String(d.reason)}`;
    case 'GenerationCharged':
    case 'JobCharged':
      return `charged ${money(d.amountMinor, d.currency)}${d.jobId !== undefined ? ` for job ${String(d.jobId)}` : ''}`;
    case 'GenerationRefunded':
    case 'JobRefunded':
      return `refunded ${money(d.amountMinor, d.currency)} (${String(d.reason)})${d.jobId !== undefined ? ` for job ${String(d.jobId)}` : ''}`;
    case 'QuoteIssued': {
      const quote = (d.quote ?? {}) as Data;
      return `quote ${String(quote.quoteId)} issued: ${money(quote.amountMinor, quote.currency)} for job ${String(d.jobId)}`;
    }
    case 'QuoteApproved':
      return `quote ${String(d.quoteId)} approved by ${String(d.approvedBy)}`;
    case 'BudgetApproved':
      return `budget approved: ${money(d.amountMinor, d.currency)} by ${String(d.approvedBy)}`;
    case 'FundsReserved':
      return `reserved ${money(d.amountMinor, d.currency)} for job ${String(d.jobId)} (${String(d.authorization)})`;
    case 'ReservationReleased':
      return `reservation released: ${money(d.amountMinor, d.currency)} for job ${String(d.jobId)} (${String(d.reason)})`;
    default:
      return type;
  }
}

export function timelineEntry(event: EventEnvelope): TimelineEntry {
  const m = event.metadata;
  return {
    position: m.globalPosition,
    streamId: m.streamId,
    revision: m.revision,
    occurredAt: m.occurredAt,
    type: event.type,
    kind: timelineKindOf(event.type),
    summary: summarize(event.type, (event.data ?? {}) as Data),
    actor: actorLabel(m.actor),
    generation: m.generation ?? null,
  };
}
