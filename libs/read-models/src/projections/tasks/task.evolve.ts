import type { KnownEvent } from '../engine/known-event';
import { entityIdOf } from '../engine/stream-revisions';
import type { TaskDocument, TaskStatus, TurnActivity } from './task.document';

export function blankTask(id: string, event: KnownEvent): TaskDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    created: false,
    goal: null,
    kind: null,
    status: null,
    language: null,
    originMessageId: null,
    createdAt: null,
    activeTurnId: null,
    openCheckpoints: 0,
    inbox: { pending: 0, claimed: 0, withdrawn: 0 },
    turnsOpened: 0,
    taskActivityAt: null,
    turnActivity: {},
    counts: { inboxPending: 0, inboxClaimed: 0, inboxWithdrawn: 0, turns: 0, steps: 0 },
    lastActivityAt: null,
    activeTurn: null,
  };
}

/** As the task decider settles it: a runnable task waits while a checkpoint is open. */
function settled(status: TaskStatus | null, openCheckpoints: number): TaskStatus | null {
  if (status !== 'active' && status !== 'waiting') return status;
  return openCheckpoints > 0 ? 'waiting' : 'active';
}

/**
 * Task-stream events. Inbox counts follow the decider's rules (only delivered items are claimed
 * or withdrawn, only claimed ones released), so transitions are counted without per-item state.
 */
function evolveFromTask(task: TaskDocument, event: KnownEvent): TaskDocument {
  const doc = { ...task, taskActivityAt: event.metadata.occurredAt };
  const { inbox } = doc;
  switch (event.type) {
    case 'TaskCreated': {
      const { goal, kind, language, originMessageId } = event.data;
      return {
        ...doc,
        created: true,
        goal,
        kind,
        language,
        originMessageId,
        createdAt: event.metadata.occurredAt,
        status: settled('active', doc.openCheckpoints),
      };
    }
    case 'TaskUpgraded':
      return { ...doc, kind: event.data.to };
    case 'MessageDeliveredToInbox':
      return { ...doc, inbox: { ...inbox, pending: inbox.pending + 1 } };
    case 'InboxItemWithdrawn':
      return { ...doc, inbox: { ...inbox, pending: inbox.pending - 1, withdrawn: inbox.withdrawn + 1 } };
    case 'InboxItemsClaimed': {
      const n = event.data.itemIds.length;
      return { ...doc, inbox: { ...inbox, pending: inbox.pending - n, claimed: inbox.claimed + n } };
    }
    case 'InboxItemsReleased': {
      const n = event.data.itemIds.length;
      return { ...doc, inbox: { ...inbox, pending: inbox.pending + n, claimed: inbox.claimed - n } };
    }
    case 'TurnOpened':
      return { ...doc, activeTurnId: event.data.turnId, turnsOpened: doc.turnsOpened + 1 };
    case 'TurnClosed':
      return { ...doc, activeTurnId: doc.activeTurnId === event.data.turnId ? null : doc.activeTurnId };
    case 'CheckpointOpened': {
      const openCheckpoints = doc.openCheckpoints + 1;
      return { ...doc, openCheckpoints, status: settled(doc.status, openCheckpoints) };
    }
    case 'CheckpointResolved': {
      const openCheckpoints = Math.max(0, doc.openCheckpoints - 1);
      return { ...doc, openCheckpoints, status: settled(doc.status, openCheckpoints) };
    }
    case 'TaskPaused':
      return { ...doc, status: 'paused' };
    case 'TaskResumed':
      return { ...doc, status: settled('active', doc.openCheckpoints) };
    case 'TaskStopped':
      return { ...doc, status: 'stopped', activeTurnId: null };
    case 'TaskCompleted':
      return { ...doc, status: 'completed' };
    case 'TaskArchived':
      return { ...doc, status: 'archived' };
    default:
      return doc;
  }
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

export function deriveTask(task: TaskDocument): TaskDocument {
  let steps = 0;
  let lastActivityAt = task.taskActivityAt;
  for (const turn of Object.values(task.turnActivity)) {
    steps += turn.steps;
    lastActivityAt = later(lastActivityAt, turn.lastActivityAt);
  }
  const active = task.activeTurnId === null ? undefined : task.turnActivity[task.activeTurnId];
  return {
    ...task,
    counts: {
      inboxPending: task.inbox.pending,
      inboxClaimed: task.inbox.claimed,
      inboxWithdrawn: task.inbox.withdrawn,
      turns: task.turnsOpened,
      steps,
    },
    lastActivityAt,
    activeTurn:
      task.activeTurnId === null
        ? null
        : { turnId: task.activeTurnId, status: active?.status ?? null, steps: active?.steps ?? 0 },
  };
}
