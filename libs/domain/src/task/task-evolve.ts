import { assertNever } from '../decider';
import { withItemChange } from './checklist-rules';
import type { TaskEvent } from './task-events';
import {
  claimKey,
  type ActiveTask,
  type ArchivedTask,
  type Checkpoint,
  type CheckpointDecision,
  type ExistingTask,
  type FinalTask,
  type InboxItem,
  type OpenTask,
  type TaskState,
} from './task-state';
import { openCheckpointCount, settleRunnableStatus } from './task-waiting';
import { planBudgetIdForCard } from './task-ids';

/** `active` and `waiting` follow from whether a checkpoint is open (task-waiting.ts); other statuses are kept. */
function settle(task: ExistingTask): ExistingTask {
  if (task.status !== 'active' && task.status !== 'waiting') return task;
  const status = settleRunnableStatus(task.status, openCheckpointCount(task));
  return status === task.status ? task : { ...task, status };
}

const isFinalTask = (task: ExistingTask): task is FinalTask =>
  task.status === 'stopped' || task.status === 'completed' || task.status === 'archived';

function withItems(task: ExistingTask, itemIds: readonly string[], change: (item: InboxItem) => InboxItem) {
  const inbox = { ...task.inbox };
  for (const id of itemIds) {
    const item = inbox[id];
    if (item) inbox[id] = change(item);
  }
  return inbox;
}

function created(event: Extract<TaskEvent, { type: 'TaskCreated' }>): ActiveTask {
  return {
    ...event.data,
    status: 'active',
    inbox: {},
    claims: {},
    activeTurnId: null,
    lastClosedTurn: null,
    checkpoints: {},
    approvals: {},
    autonomy: 'assisted',
    brief: null,
    checklist: [],
    continuation: null,
    budgets: [],
    directedBy: 'person',
    artifacts: {},
    notices: {},
    summary: null,
    mergedInto: null,
    mergedFrom: [],
    turns: [],
    loadedDomains: [],
    domainLoads: {},
    segments: [],
    constraints: {},
    excluded: { messageIds: [], steps: [], calls: [], forgettings: [] },
    fork: null,
  };
}

/**
 * Folds one task event. Events were validated when they were decided or read, so evolve trusts
 * them; an event for a task that does not exist yet (other than TaskCreated) leaves the state as is.
 */
export function evolveTask(state: TaskState, event: TaskEvent): TaskState {
  if (event.type === 'TaskCreated') return state.status === 'none' ? created(event) : state;
  if (state.status === 'none') return state;
  return settle(evolveExisting(state, event));
}

/**
 * Status changes apply only from the statuses the decider moves out of (decide-lifecycle.ts,
 * decide-turn-slot.ts); an event that could not have been decided in the current status leaves
 * the status, and its fields, alone: a final task stays final.
 */
function evolveExisting(task: ExistingTask, event: Exclude<TaskEvent, { type: 'TaskCreated' }>): ExistingTask {
  switch (event.type) {
    case 'TaskUpgraded':
      return { ...task, kind: event.data.to };
    case 'TaskSummaryUpdated':
      return { ...task, summary: event.data.summary };
    case 'MessageMoved': {
      const { toTaskId, consumed } = event.data;
      // An unconsumed item leaves the open inbox as a withdrawal does; a consumed one stays as history.
      return {
        ...task,
        inbox: withItems(task, [event.data.itemId], (i) =>
          consumed
            ? { ...i, movedTo: { taskId: toTaskId, consumed } }
            : { ...i, status: 'withdrawn', claimedBy: null, movedTo: { taskId: toTaskId, consumed } },
        ),
      };
    }
    case 'TasksMerged': {
      const { role, sourceTaskId, targetTaskId, movedItemIds } = event.data;
      if (role === 'target')
        return task.mergedFrom.includes(sourceTaskId)
          ? task
          : { ...task, mergedFrom: [...task.mergedFrom, sourceTaskId] };
      return {
        ...task,
        mergedInto: task.mergedInto ?? targetTaskId,
        inbox: withItems(task, movedItemIds, (i) => ({
          ...i,
          status: 'withdrawn',
          claimedBy: null,
          movedTo: { taskId: targetTaskId, consumed: false },
        })),
      };
    }
    case 'BriefUpdated':
      return {
        ...task,
        brief: {
          version: event.data.version,
          text: event.data.brief,
          ...(event.data.callId !== undefined ? { callId: event.data.callId } : {}),
        },
      };
    case 'ChecklistPlanned': {
      // A re-plan (a change of direction) keeps what items of the same id had: status, note,
      // evidence and the artefacts linked to them.
      const before = new Map(task.checklist.map((i) => [i.itemId, i]));
      return {
        ...task,
        checklist: event.data.items.map(({ itemId, title, dependsOn, needsConfirmation, output }) => {
          const kept = before.get(itemId);
          const planned = {
            itemId,
            title,
            dependsOn,
            needsConfirmation: needsConfirmation === true,
            output: output ?? null,
            plannedBy: event.data.callId ?? null,
          };
          return kept
            ? {
                ...planned,
                status: kept.status,
                note: kept.note,
                evidence: kept.evidence,
                reviewCheckpointId: kept.reviewCheckpointId,
                linkedArtifactIds: kept.linkedArtifactIds,
              }
            : {
                ...planned,
                status: 'pending' as const,
                note: null,
                evidence: null,
                reviewCheckpointId: null,
                linkedArtifactIds: [],
              };
        }),
      };
    }
    case 'ChecklistItemChanged':
      return {
        ...task,
        checklist: task.checklist.map((i) => (i.itemId === event.data.itemId ? withItemChange(i, event.data) : i)),
      };
    case 'MessageDeliveredToInbox': {
      const { itemId, messageId, text, language, movedFrom, channel, from } = event.data;
      const item: InboxItem = {
        itemId,
        messageId,
        text,
        language,
        status: 'delivered',
        claimedBy: null,
        replacements: 0,
        movedTo: null,
        movedFrom: movedFrom ? { taskId: movedFrom.taskId, consumedThere: movedFrom.consumedThere } : null,
        channel: channel ?? 'ui',
        from: from ?? null,
      };
      return { ...task, inbox: { ...task.inbox, [itemId]: item } };
    }
    case 'InboxItemWithdrawn':
      return { ...task, inbox: withItems(task, [event.data.itemId], (i) => ({ ...i, status: 'withdrawn' })) };
    case 'InboxItemReplaced': {
      const { text, language } = event.data;
      return {
        ...task,
        inbox: withItems(task, [event.data.itemId], (i) => ({
          ...i,
          text,
          language,
          replacements: i.replacements + 1,
        })),
      };
    }
    case 'InboxItemsClaimed': {
      const { turnId, step, itemIds } = event.data;
      // Fail closed: one integration message in the claim makes the work integration-directed.
      const fromIntegration = itemIds.some((id) => task.inbox[id]?.channel === 'api');
      return {
        ...task,
        inbox: withItems(task, itemIds, (i) => ({ ...i, status: 'claimed', claimedBy: { turnId, step } })),
        claims: { ...task.claims, [claimKey(turnId, step)]: { turnId, step, itemIds, released: false } },
        directedBy: fromIntegration ? 'integration' : 'person',
      };
    }
    case 'InboxItemsReleased': {
      const { turnId, step, itemIds } = event.data;
      const key = claimKey(turnId, step);
      const claim = task.claims[key];
      return {
        ...task,
        inbox: withItems(task, itemIds, (i) => ({ ...i, status: 'delivered', claimedBy: null })),
        claims: claim ? { ...task.claims, [key]: { ...claim, released: true } } : task.claims,
      };
    }
    case 'TurnOpened': {
      if (isFinalTask(task)) return task;
      // Whatever opened it, the decided continuation has its turn now.
      const continuation = task.continuation?.pending ? { ...task.continuation, pending: false } : task.continuation;
      const turns = task.turns.includes(event.data.turnId) ? task.turns : [...task.turns, event.data.turnId];
      return { ...task, activeTurnId: event.data.turnId, continuation, turns };
    }
    case 'ContinuationDecided':
      return {
        ...task,
        continuation: { ...event.data, pending: event.data.decision === 'continue', pendingBy: 'runtime' },
      };
    case 'TurnClosed': {
      const lastClosedTurn = { ...event.data };
      if (isFinalTask(task) || task.activeTurnId !== event.data.turnId) return { ...task, lastClosedTurn };
      return { ...task, lastClosedTurn, activeTurnId: null };
    }
    case 'CheckpointOpened': {
      const { checkpointId, turnId, kind, callId, question, itemId, options } = event.data;
      const checkpoint: Checkpoint = {
        checkpointId,
        turnId,
        kind,
        callId: callId ?? null,
        question,
        itemId: itemId ?? null,
        options: options ?? [],
        argumentsHash: event.data.argumentsHash ?? null,
        callQuote: event.data.callQuote ?? null,
        planQuote: event.data.planQuote ?? null,
        resolution: null,
      };
      const checklist =
        itemId === undefined
          ? task.checklist
          : task.checklist.map((i) => (i.itemId === itemId ? { ...i, reviewCheckpointId: checkpointId } : i));
      return { ...task, checklist, checkpoints: { ...task.checkpoints, [checkpointId]: checkpoint } };
    }
    case 'CheckpointResolved':
      return resolved(task, event.data, event.recordedBy?.kind === 'agent');
    case 'AutonomyChanged':
      return { ...task, autonomy: event.data.level };
    case 'PlanBudgetApproved': {
      if (task.budgets.some((b) => b.budgetId === event.data.budgetId)) return task;
      const { budgetId, amountMinor, currency, approvedBy } = event.data;
      return {
        ...task,
        budgets: [...task.budgets, { budgetId, amountMinor, currency, approvedBy, checkpointId: null }],
      };
    }
    case 'TaskPaused':
      return isFinalTask(task) ? task : { ...task, status: 'paused' };
    case 'TaskResumed':
      // settle() turns this into `waiting` when a checkpoint is still open.
      return task.status === 'paused' ? { ...task, status: 'active' } : task;
    case 'TaskStopped':
      return isFinalTask(task) ? task : stoppedTask(task, event.data.by);
    case 'TaskCompleted':
      return isFinalTask(task)
        ? task
        : { ...task, status: 'completed', activeTurnId: null, completionSummary: event.data.summary ?? null };
    case 'TaskArchived': {
      if (task.status === 'archived') return task;
      const archived = archivedTask(task);
      const mergedInto = archived.mergedInto ?? event.data.mergedInto ?? null;
      return mergedInto === archived.mergedInto ? archived : { ...archived, mergedInto };
    }
    case 'ArtifactChangeNoticed': {
      const { noticeId, artifactId, fromVersion, toVersion, by, nodes, summary } = event.data;
      if (task.notices[noticeId]) return task;
      const notice = { noticeId, artifactId, fromVersion, toVersion, by, nodes, summary, consumedBy: null };
      return {
        ...task,
        artifacts: { ...task.artifacts, [artifactId]: Math.max(task.artifacts[artifactId] ?? 0, toVersion) },
        notices: { ...task.notices, [noticeId]: notice },
      };
    }
    case 'ArtifactChangeNoticeWidened': {
      const notice = task.notices[event.data.noticeId];
      if (!notice) return task;
      const { toVersion, by, nodes, summary } = event.data;
      const widened = { ...notice, toVersion: Math.max(notice.toVersion, toVersion), by, nodes, summary };
      const artifactId = notice.artifactId;
      return {
        ...task,
        artifacts: { ...task.artifacts, [artifactId]: Math.max(task.artifacts[artifactId] ?? 0, widened.toVersion) },
        notices: { ...task.notices, [notice.noticeId]: widened },
      };
    }
    case 'ArtifactChangeNoticesConsumed': {
      const { turnId, step, noticeIds } = event.data;
      const notices = { ...task.notices };
      for (const id of noticeIds) {
        const notice = notices[id];
        if (notice && notice.consumedBy === null) notices[id] = { ...notice, consumedBy: { turnId, step } };
      }
      return { ...task, notices };
    }
    case 'ToolDomainsLoaded': {
      const at = { turnId: event.data.turnId, step: event.data.step };
      const domainLoads = { ...task.domainLoads };
      for (const d of event.data.domains) domainLoads[d] = at;
      return {
        ...task,
        loadedDomains: [...task.loadedDomains, ...event.data.domains.filter((d) => !task.loadedDomains.includes(d))],
        domainLoads,
      };
    }
    case 'ToolDomainsUnloaded': {
      const domainLoads = { ...task.domainLoads };
      for (const d of event.data.domains) delete domainLoads[d];
      return { ...task, loadedDomains: task.loadedDomains.filter((d) => !event.data.domains.includes(d)), domainLoads };
    }
    case 'HistorySegmentAppended':
      return withSegment(task, event.data);
    case 'HistorySegmentsExcluded':
      return {
        ...task,
        segments: task.segments.map((s) =>
          event.data.segmentIds.includes(s.segmentId) ? { ...s, excluded: true } : s,
        ),
      };
    case 'ForkedFrom': {
      // A fork of a fork copies its source's ForkedFrom too: the last one names this task's lineage.
      const { sourceTaskId, sourceRevision, sourcePosition, atStep, by } = event.data;
      return {
        ...task,
        fork: { sourceTaskId, sourceRevision, sourcePosition, atStep: atStep ?? null, forkedBy: by, armed: [] },
      };
    }
    case 'ToolsArmed': {
      if (task.fork === null) return task;
      const { armed } = task.fork;
      const tools = event.data.tools;
      const next = armed === 'all' || tools === 'all' ? 'all' : [...new Set([...armed, ...tools])];
      return { ...task, fork: { ...task.fork, armed: next } };
    }
    case 'ContextExcluded': {
      if (task.excluded.forgettings.includes(event.data.forgettingId)) return task;
      const messageIds = new Set(task.excluded.messageIds);
      const steps = new Set(task.excluded.steps);
      for (const id of event.data.messageIds) messageIds.add(id);
      for (const s of event.data.steps) steps.add(`${s.turnId}:${s.step}`);
      const calls = new Set([...task.excluded.calls, ...(event.data.calls ?? [])]);
      return {
        ...task,
        excluded: {
          messageIds: [...messageIds],
          steps: [...steps],
          calls: [...calls],
          forgettings: [...task.excluded.forgettings, event.data.forgettingId],
        },
      };
    }
    case 'ConstraintsNoted': {
      const constraints = { ...task.constraints };
      for (const c of event.data.constraints) {
        if (constraints[c.constraintId] !== undefined) continue;
        constraints[c.constraintId] = {
          constraintId: c.constraintId,
          subject: c.subject,
          statement: c.statement,
          itemId: event.data.itemId,
          withdrawnBy: null,
        };
        const replaced = c.replaces === undefined ? undefined : constraints[c.replaces];
        if (replaced !== undefined && replaced.withdrawnBy === null)
          constraints[replaced.constraintId] = { ...replaced, withdrawnBy: c.constraintId };
      }
      return { ...task, constraints };
    }
    default:
      return assertNever(event, 'task event');
  }
}

function withSegment(
  task: ExistingTask,
  data: Extract<TaskEvent, { type: 'HistorySegmentAppended' }>['data'],
): ExistingTask {
  if (task.segments.some((s) => s.segmentId === data.segmentId)) return task;
  const segments = task.segments.map((s) =>
    data.supersedes.includes(s.segmentId) && s.supersededBy === null ? { ...s, supersededBy: data.segmentId } : s,
  );
  const { segmentId, covers, text, tokens, summarizer, supersedes } = data;
  return {
    ...task,
    segments: [
      ...segments,
      { segmentId, covers, text, tokens, summarizer, supersedes, supersededBy: null, excluded: false },
    ],
  };
}

function resolved(
  task: ExistingTask,
  data: Extract<TaskEvent, { type: 'CheckpointResolved' }>['data'],
  recordedByAgent: boolean,
): ExistingTask {
  const checkpoint = task.checkpoints[data.checkpointId];
  // A model's claim of approval is never authorization (DESIGN.md §5): a resolution the agent
  // recorded itself resolves nothing, and the checkpoint stays open for the person.
  if (!checkpoint || recordedByAgent) return task;
  const resolution = {
    decision: data.decision,
    answer: data.answer ?? null,
    choice: data.choice ?? null,
    resolvedBy: data.resolvedBy,
  };
  const checkpoints = { ...task.checkpoints, [data.checkpointId]: { ...checkpoint, resolution } };
  const callId = checkpoint.kind === 'approval' ? checkpoint.callId : null;
  if (callId === null) {
    const continuation = resumedByPerson({ ...task, checkpoints }, checkpoint, data.decision);
    return { ...task, checkpoints, continuation, budgets: withCardBudget(task.budgets, checkpoint, data) };
  }
  if (data.decision !== 'approve' && data.decision !== 'reject') return { ...task, checkpoints };
  const approval = {
    callId,
    checkpointId: data.checkpointId,
    decision: data.decision,
    resolvedBy: data.resolvedBy,
  };
  return { ...task, checkpoints, approvals: { ...task.approvals, [callId]: approval } };
}

/**
 * A card opened when its turn closed (a review the runtime opened with the continuation decision,
 * a budget card, a question the agent asked before ending its turn) has no turn waiting on it:
 * the person's answer owes the task a new turn, once the last such card is answered (a review and
 * the plan's budget card are answered one after the other, and the task goes on once). Rejecting
 * a review owes none: the person says what comes next. Declining a budget owes one: the agent goes
 * on and each paid call asks on its own.
 */
function resumedByPerson(
  task: ExistingTask,
  checkpoint: Checkpoint,
  decision: CheckpointDecision,
): ExistingTask['continuation'] {
  if (task.activeTurnId === checkpoint.turnId || task.continuation === null) return task.continuation;
  if (decision === 'reject' && checkpoint.kind !== 'budget') return task.continuation;
  if (Object.values(task.checkpoints).some((c) => c.resolution === null)) return task.continuation;
  return { ...task.continuation, pending: true, pendingBy: 'person' };
}

/** An approved budget card is the plan's budget: its quote's total, approved by the person once. */
function withCardBudget(
  budgets: ExistingTask['budgets'],
  checkpoint: Checkpoint,
  data: Extract<TaskEvent, { type: 'CheckpointResolved' }>['data'],
): ExistingTask['budgets'] {
  if (checkpoint.kind !== 'budget' || checkpoint.planQuote === null || data.decision !== 'approve') return budgets;
  const budgetId = planBudgetIdForCard(checkpoint.checkpointId);
  if (budgets.some((b) => b.budgetId === budgetId)) return budgets;
  const { amountMinor, currency } = checkpoint.planQuote;
  return [
    ...budgets,
    { budgetId, amountMinor, currency, approvedBy: data.resolvedBy, checkpointId: checkpoint.checkpointId },
  ];
}

function stoppedTask(task: OpenTask, by: Extract<TaskEvent, { type: 'TaskStopped' }>['data']['by']): ExistingTask {
  return {
    ...task,
    status: 'stopped',
    stoppedBy: by,
    activeTurnId: null,
    lastClosedTurn: task.activeTurnId ? { turnId: task.activeTurnId, outcome: 'cancelled' } : task.lastClosedTurn,
  };
}

function archivedTask(task: Exclude<ExistingTask, ArchivedTask>): ArchivedTask {
  return {
    ...task,
    status: 'archived',
    activeTurnId: null,
    completionSummary: task.status === 'completed' ? task.completionSummary : null,
    stoppedBy: task.status === 'stopped' ? task.stoppedBy : null,
  };
}
