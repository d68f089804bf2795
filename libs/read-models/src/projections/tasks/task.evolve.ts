import { planBudgetIdForCard, settleRunnableStatus, withItemChange } from '@lomo/domain';
import type { KnownEvent, KnownEventOf } from '../engine/known-event';
import { entityIdOf } from '../engine/stream-revisions';
import type { TaskCheckpoint, TaskChecklistItem, TaskDocument, TurnActivity } from './task.document';

export function blankTask(id: string, event: KnownEvent): TaskDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    created: false,
    goal: null,
    kind: null,
    summary: null,
    mergedInto: null,
    status: null,
    language: null,
    originMessageId: null,
    createdAt: null,
    activeTurnId: null,
    openCheckpoints: 0,
    brief: null,
    checklist: [],
    checkpoints: [],
    autonomy: 'assisted',
    planBudgets: [],
    lastContinuation: null,
    inbox: { pending: 0, claimed: 0, withdrawn: 0, moved: 0 },
    turnsOpened: 0,
    taskActivityAt: null,
    turnActivity: {},
    counts: { inboxPending: 0, inboxClaimed: 0, inboxWithdrawn: 0, inboxMoved: 0, turns: 0, steps: 0 },
    lastActivityAt: null,
    activeTurn: null,
    forkOf: null,
  };
}

/**
 * Task-stream events. `status` follows the task decider's own waiting rule (settleRunnableStatus
 * from @lomo/domain) on this document's count of open checkpoints. Inbox counts follow the
 * decider's rules (only delivered items are claimed or withdrawn, only claimed ones released), so
 * transitions are counted without per-item state.
 * One copy of the document per event (a rebuild runs this for every task event).
 */
function evolveFromTask(task: TaskDocument, event: KnownEvent): TaskDocument {
  const taskActivityAt = event.metadata.occurredAt;
  const { inbox } = task;
  switch (event.type) {
    case 'TaskCreated': {
      const { goal, kind, language, originMessageId } = event.data;
      return {
        ...task,
        taskActivityAt,
        created: true,
        goal,
        kind,
        language,
        originMessageId,
        createdAt: event.metadata.occurredAt,
        status: settleRunnableStatus('active', task.openCheckpoints),
      };
    }
    case 'TaskUpgraded':
      return { ...task, taskActivityAt, kind: event.data.to };
    case 'TaskSummaryUpdated':
      return { ...task, taskActivityAt, summary: event.data.summary };
    case 'MessageMoved':
      // Unread, the item left this inbox (the decider only moves pending ones unread); read, it
      // stays here as history and the target got a copy.
      return event.data.consumed
        ? { ...task, taskActivityAt }
        : { ...task, taskActivityAt, inbox: { ...inbox, pending: inbox.pending - 1, moved: inbox.moved + 1 } };
    case 'TasksMerged': {
      if (event.data.role === 'target') return { ...task, taskActivityAt };
      const n = event.data.movedItemIds.length;
      return {
        ...task,
        taskActivityAt,
        mergedInto: task.mergedInto ?? event.data.targetTaskId,
        inbox: { ...inbox, pending: inbox.pending - n, moved: inbox.moved + n },
      };
    }
    case 'MessageDeliveredToInbox':
      return { ...task, taskActivityAt, inbox: { ...inbox, pending: inbox.pending + 1 } };
    case 'InboxItemWithdrawn':
      return {
        ...task,
        taskActivityAt,
        inbox: { ...inbox, pending: inbox.pending - 1, withdrawn: inbox.withdrawn + 1 },
      };
    case 'InboxItemsClaimed': {
      const n = event.data.itemIds.length;
      return { ...task, taskActivityAt, inbox: { ...inbox, pending: inbox.pending - n, claimed: inbox.claimed + n } };
    }
    case 'InboxItemsReleased': {
      const n = event.data.itemIds.length;
      return { ...task, taskActivityAt, inbox: { ...inbox, pending: inbox.pending + n, claimed: inbox.claimed - n } };
    }
    case 'TurnOpened':
      return { ...task, taskActivityAt, activeTurnId: event.data.turnId, turnsOpened: task.turnsOpened + 1 };
    case 'ContinuationDecided': {
      const { turnId, decision, reason, progress, autoTurns, turnsWithoutProgress } = event.data;
      return {
        ...task,
        taskActivityAt,
        lastContinuation: { turnId, decision, reason, progress: [...progress], autoTurns, turnsWithoutProgress },
      };
    }
    case 'TurnClosed':
      return {
        ...task,
        taskActivityAt,
        activeTurnId: task.activeTurnId === event.data.turnId ? null : task.activeTurnId,
      };
    case 'CheckpointOpened': {
      // The decider opens an id once; a repeat of it (a duplicate) changes nothing.
      if (task.checkpoints.some((c) => c.checkpointId === event.data.checkpointId)) return { ...task, taskActivityAt };
      const checkpoint = checkpointCardOf(event);
      return withCheckpoints(task, taskActivityAt, [...task.checkpoints, checkpoint]);
    }
    case 'CheckpointResolved': {
      // The domain's rule (task-evolve.ts): a resolution the agent recorded itself resolves
      // nothing; the first resolution stands.
      if (event.metadata.actor.kind === 'agent') return { ...task, taskActivityAt };
      const { checkpointId, decision, answer, choice, resolvedBy } = event.data;
      const at = event.metadata.occurredAt;
      const card = task.checkpoints.find((c) => c.checkpointId === checkpointId && c.resolution === null);
      const checkpoints = task.checkpoints.map((c) =>
        c === card
          ? {
              ...c,
              resolution: { decision, note: answer ?? null, choice: choice ?? null, resolvedBy, resolvedAt: at },
            }
          : c,
      );
      const budgetId = card?.planQuote != null && decision === 'approve' ? planBudgetIdForCard(checkpointId) : null;
      const planBudgets =
        card?.planQuote == null || budgetId === null || task.planBudgets.some((b) => b.budgetId === budgetId)
          ? task.planBudgets
          : [
              ...task.planBudgets,
              {
                budgetId,
                amountMinor: card.planQuote.amountMinor,
                currency: card.planQuote.currency,
                approvedBy: resolvedBy,
                checkpointId,
                approvedAt: at,
              },
            ];
      return { ...withCheckpoints(task, taskActivityAt, checkpoints), planBudgets };
    }
    case 'BriefUpdated':
      return { ...task, taskActivityAt, brief: { version: event.data.version, text: event.data.brief } };
    case 'ChecklistPlanned': {
      // A re-plan keeps what items of the same id had: status, note, evidence (the decider's rule).
      const before = new Map(task.checklist.map((i) => [i.itemId, i]));
      const checklist = event.data.items.map(
        ({ itemId, title, dependsOn, needsConfirmation, output }): TaskChecklistItem => {
          const kept = before.get(itemId);
          return {
            itemId,
            title,
            dependsOn: [...dependsOn],
            needsConfirmation: needsConfirmation === true,
            output: output ?? null,
            status: kept?.status ?? 'pending',
            note: kept?.note ?? null,
            evidence: kept?.evidence ?? null,
            linkedArtifactIds: kept?.linkedArtifactIds ?? [],
          };
        },
      );
      return { ...task, taskActivityAt, checklist };
    }
    case 'ChecklistItemChanged': {
      const checklist = task.checklist.map((i) => (i.itemId === event.data.itemId ? withItemChange(i, event.data) : i));
      return { ...task, taskActivityAt, checklist };
    }
    case 'AutonomyChanged':
      return { ...task, taskActivityAt, autonomy: event.data.level };
    case 'PlanBudgetApproved': {
      const { budgetId, amountMinor, currency, approvedBy } = event.data;
      if (task.planBudgets.some((b) => b.budgetId === budgetId)) return { ...task, taskActivityAt };
      return {
        ...task,
        taskActivityAt,
        planBudgets: [
          ...task.planBudgets,
          { budgetId, amountMinor, currency, approvedBy, approvedAt: event.metadata.occurredAt },
        ],
      };
    }
    case 'TaskPaused':
      return { ...task, taskActivityAt, status: 'paused' };
    case 'TaskResumed':
      return { ...task, taskActivityAt, status: settleRunnableStatus('active', task.openCheckpoints) };
    case 'TaskStopped':
      return { ...task, taskActivityAt, status: 'stopped', activeTurnId: null };
    case 'TaskCompleted':
      return { ...task, taskActivityAt, status: 'completed' };
    case 'ForkedFrom': {
      // The last one names the lineage (a fork of a fork copies its source's), and disarms.
      const { sourceTaskId, sourceRevision, sourcePosition } = event.data;
      const forkOf = { taskId: sourceTaskId, revision: sourceRevision, position: sourcePosition, armedTools: [] };
      return { ...task, taskActivityAt, forkOf };
    }
    case 'ToolsArmed': {
      if (task.forkOf === null) return { ...task, taskActivityAt };
      const { armedTools } = task.forkOf;
      const tools = event.data.tools;
      const armed = armedTools === 'all' || tools === 'all' ? 'all' : [...new Set([...armedTools, ...tools])];
      return { ...task, taskActivityAt, forkOf: { ...task.forkOf, armedTools: armed } };
    }
    case 'TaskArchived':
      return {
        ...task,
        taskActivityAt,
        status: 'archived',
        mergedInto: task.mergedInto ?? event.data.mergedInto ?? null,
      };
    default:
      return { ...task, taskActivityAt };
  }
}

/** A card as CheckpointOpened opens it (the main line's card items fold it the same way). */
export function checkpointCardOf(event: KnownEventOf<'CheckpointOpened'>): TaskCheckpoint {
  const { checkpointId, turnId, kind, callId, question, itemId, options, callQuote, planQuote } = event.data;
  return {
    checkpointId,
    turnId,
    kind,
    callId: callId ?? null,
    question,
    itemId: itemId ?? null,
    options: (options ?? []).map(({ optionId, label }) => ({ optionId, label })),
    callQuote: callQuote ?? null,
    planQuote: planQuote ?? null,
    openedAt: event.metadata.occurredAt,
    resolution: null,
  };
}

/** The checkpoints, the count of open ones, and the status the decider's waiting rule gives. */
function withCheckpoints(task: TaskDocument, taskActivityAt: string, checkpoints: TaskCheckpoint[]): TaskDocument {
  const openCheckpoints = checkpoints.filter((c) => c.resolution === null).length;
  return {
    ...task,
    taskActivityAt,
    checkpoints,
    openCheckpoints,
    status: settleRunnableStatus(task.status, openCheckpoints),
  };
}

const nextTurnStatus = (current: TurnActivity | undefined, event: KnownEvent): TurnActivity['status'] => {
  switch (event.type) {
    case 'TurnStarted':
    case 'TurnResumed':
      return 'queued';
    case 'TurnLeased':
      return current?.status === 'queued' ? 'running' : (current?.status ?? 'running');
    case 'TurnWaiting':
      return 'waiting';
    case 'TurnCompleted':
      return 'completed';
    case 'TurnFailed':
      return 'failed';
    case 'TurnCancelled':
      return 'cancelled';
    default:
      return current?.status ?? 'queued';
  }
};

/** Turn-stream events touch only their own entry of `turnActivity`. */
function evolveFromTurn(task: TaskDocument, event: KnownEvent): TaskDocument {
  const turnId = entityIdOf(event.metadata.streamId);
  const current = task.turnActivity[turnId];
  const entry: TurnActivity = {
    status: nextTurnStatus(current, event),
    steps: (current?.steps ?? 0) + (event.type === 'ModelStepCommitted' ? 1 : 0),
    lastActivityAt: event.metadata.occurredAt,
  };
  return { ...task, turnActivity: { ...task.turnActivity, [turnId]: entry } };
}

export function evolveTaskDocument(task: TaskDocument, event: KnownEvent): TaskDocument {
  return event.metadata.streamId.startsWith('turn-') ? evolveFromTurn(task, event) : evolveFromTask(task, event);
}

/**
 * Event times are ISO 8601; in the store's own form (UTC, "Z", fixed width) they order as strings,
 * which saves a Date.parse per turn per event during a rebuild.
 */
function later(a: string | null, b: string): string {
  if (a === null) return b;
  if (a.length === b.length && a.endsWith('Z') && b.endsWith('Z')) return b > a ? b : a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * The derived fields. Pure; the counts and the active turn keep their objects when their values
 * did not change, which spares a rebuild two allocations per event.
 */
export function deriveTask(task: TaskDocument): TaskDocument {
  let steps = 0;
  let lastActivityAt = task.taskActivityAt;
  const { turnActivity, inbox, activeTurnId } = task;
  for (const turnId in turnActivity) {
    const turn = turnActivity[turnId];
    steps += turn.steps;
    lastActivityAt = later(lastActivityAt, turn.lastActivityAt);
  }
  const previous = task.counts;
  const counts =
    previous.inboxPending === inbox.pending &&
    previous.inboxClaimed === inbox.claimed &&
    previous.inboxWithdrawn === inbox.withdrawn &&
    previous.inboxMoved === inbox.moved &&
    previous.turns === task.turnsOpened &&
    previous.steps === steps
      ? previous
      : {
          inboxPending: inbox.pending,
          inboxClaimed: inbox.claimed,
          inboxWithdrawn: inbox.withdrawn,
          inboxMoved: inbox.moved,
          turns: task.turnsOpened,
          steps,
        };
  let activeTurn: TaskDocument['activeTurn'] = null;
  if (activeTurnId !== null) {
    const active = turnActivity[activeTurnId];
    const status = active?.status ?? null;
    const activeSteps = active?.steps ?? 0;
    const was = task.activeTurn;
    activeTurn =
      was !== null && was.turnId === activeTurnId && was.status === status && was.steps === activeSteps
        ? was
        : { turnId: activeTurnId, status, steps: activeSteps };
  }
  return { ...task, counts, lastActivityAt, activeTurn };
}
