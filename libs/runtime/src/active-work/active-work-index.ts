import type { EventEnvelope } from '@lomo/contracts';
import type { EventStore, Position } from '@lomo/eventstore';
import { asTaskEvent, asTurnEvent } from '../events/domain-events';
import type { TaskWork, TurnWork, Finding } from './active-work-model';
import { findStuckWork } from './find-stuck-work';

/** The events that start, move or end active work; everything else is skipped by the store's filter. */
export const ACTIVE_WORK_EVENT_TYPES = [
  'TaskCreated',
  'MessageDeliveredToInbox',
  'InboxItemWithdrawn',
  'InboxItemsClaimed',
  'InboxItemsReleased',
  'TurnOpened',
  'TurnClosed',
  'ContinuationDecided',
  'CheckpointResolved',
  'TaskPaused',
  'TaskResumed',
  'TaskStopped',
  'TaskCompleted',
  'TaskArchived',
  'TurnStarted',
  'TurnLeased',
  'TurnLeaseRenewed',
  'ModelStepCommitted',
  'ToolCallCompleted',
  'ToolCallOutcomeUnknown',
  'TurnWaiting',
  'TurnResumed',
  'TurnCompleted',
  'TurnFailed',
  'TurnCancelled',
] as const;

const PAGE = 1_000;

/**
 * The runtime's own index of active work, kept in memory from the event log: open tasks and their
 * inbox, claims and active turn; open turns and their lease and wait. Finished work leaves the
 * index, so a watchdog scan costs in proportion to what is active, not to history. `refresh` reads
 * only the events appended since the last one it saw (the first refresh reads the filtered log once).
 */
export class ActiveWorkIndex {
  private readonly tasks = new Map<string, TaskWork>();
  private readonly turns = new Map<string, TurnWork>();
  private position: Position | undefined;

  constructor(private readonly store: Pick<EventStore, 'readAll'>) {}

  async refresh(): Promise<number> {
    let applied = 0;
    for (;;) {
      const page = await this.store.readAll({
        fromPosition: this.position ?? 'start',
        filter: { eventTypes: ACTIVE_WORK_EVENT_TYPES },
        maxCount: PAGE,
      });
      for (const event of page) this.apply(event);
      applied += page.length;
      if (page.length > 0) this.position = page[page.length - 1].metadata.globalPosition;
      if (page.length < PAGE) return applied;
    }
  }

  findings(nowMs: number, queuedTooLongMs: number): Finding[] {
    return findStuckWork(this.tasks, this.turns, nowMs, queuedTooLongMs);
  }

  /**
   * Running turns whose lease, live or not, names `workerId`. At start these are the turns this
   * worker id held before a crash; nobody else may take a live one, so the restarted executor must.
   */
  leasedTo(workerId: string): { taskId: string; turnId: string; workspaceId: string }[] {
    const found: { taskId: string; turnId: string; workspaceId: string }[] = [];
    for (const turn of this.turns.values()) {
      const task = this.tasks.get(turn.taskId);
      if (task === undefined || turn.status !== 'running' || turn.leaseHolder !== workerId) continue;
      found.push({ taskId: turn.taskId, turnId: turn.turnId, workspaceId: task.workspaceId });
    }
    return found;
  }

  get size(): { tasks: number; turns: number } {
    return { tasks: this.tasks.size, turns: this.turns.size };
  }

  apply(envelope: EventEnvelope): void {
    const at = Date.parse(envelope.metadata.occurredAt);
    const taskEvent = asTaskEvent(envelope);
    if (taskEvent !== undefined) {
      const taskId = envelope.metadata.streamId.slice('task-'.length);
      if (taskEvent.type === 'TaskCreated') {
        this.tasks.set(taskId, {
          taskId,
          workspaceId: envelope.metadata.workspaceId,
          status: 'active',
          unclaimed: new Set(),
          claims: new Map(),
          activeTurnId: null,
          activeSinceMs: at,
          resolvedCheckpoints: new Set(),
          continuationSinceMs: null,
        });
        return;
      }
      const task = this.tasks.get(taskId);
      if (task === undefined) return;
      switch (taskEvent.type) {
        case 'MessageDeliveredToInbox':
          task.unclaimed.add(taskEvent.data.itemId);
          return;
        case 'InboxItemWithdrawn':
          task.unclaimed.delete(taskEvent.data.itemId);
          return;
        case 'InboxItemsClaimed': {
          const { turnId, step, itemIds } = taskEvent.data;
          for (const id of itemIds) task.unclaimed.delete(id);
          // A claim of a step that already committed (seen out of stream order) is no loose end.
          if ((this.turns.get(turnId)?.committedSteps ?? 0) < step)
            task.claims.set(`${turnId}#${step}`, { turnId, step });
          return;
        }
        case 'InboxItemsReleased': {
          const { turnId, step, itemIds } = taskEvent.data;
          for (const id of itemIds) task.unclaimed.add(id);
          task.claims.delete(`${turnId}#${step}`);
          this.forgetTurnIfDone(turnId);
          return;
        }
        case 'TurnOpened':
          task.activeTurnId = taskEvent.data.turnId;
          task.activeSinceMs = at;
          task.continuationSinceMs = null;
          return;
        case 'ContinuationDecided':
          task.continuationSinceMs = taskEvent.data.decision === 'continue' ? at : null;
          return;
        case 'TurnClosed':
          if (task.activeTurnId === taskEvent.data.turnId) task.activeTurnId = null;
          this.forgetTurnIfDone(taskEvent.data.turnId);
          return;
        case 'CheckpointResolved':
          task.resolvedCheckpoints.add(taskEvent.data.checkpointId);
          // A card answered after its turn closed owes the task a turn (task-evolve.ts), like a
          // decided continuation; a rejection owes none.
          if (task.activeTurnId === null && taskEvent.data.decision !== 'reject') task.continuationSinceMs = at;
          return;
        case 'TaskPaused':
          task.status = 'paused';
          return;
        case 'TaskResumed':
          task.status = 'active';
          return;
        case 'TaskStopped':
        case 'TaskCompleted':
        case 'TaskArchived':
          this.forgetTask(task);
          return;
        default:
          return;
      }
    }
    const turnEvent = asTurnEvent(envelope);
    if (turnEvent === undefined) return;
    const turnId = envelope.metadata.streamId.slice('turn-'.length);
    if (turnEvent.type === 'TurnStarted') {
      if (!this.tasks.has(turnEvent.data.taskId)) return;
      this.turns.set(turnId, {
        turnId,
        taskId: turnEvent.data.taskId,
        status: 'queued',
        sinceMs: at,
        leaseUntilMs: null,
        leaseHolder: null,
        committedSteps: 0,
        waitingOn: null,
        settledCalls: new Set(),
      });
      return;
    }
    const turn = this.turns.get(turnId);
    if (turn === undefined) return;
    switch (turnEvent.type) {
      case 'TurnLeased':
        turn.status = turn.status === 'queued' ? 'running' : turn.status;
        turn.sinceMs = at;
        turn.leaseUntilMs = Date.parse(turnEvent.data.leaseUntil);
        turn.leaseHolder = turnEvent.data.workerId;
        return;
      case 'TurnLeaseRenewed':
        turn.leaseUntilMs = Date.parse(turnEvent.data.leaseUntil);
        turn.leaseHolder = turnEvent.data.workerId;
        return;
      case 'ModelStepCommitted':
        turn.committedSteps = turnEvent.data.step;
        this.tasks.get(turn.taskId)?.claims.delete(`${turnId}#${turnEvent.data.step}`);
        return;
      case 'ToolCallCompleted':
      case 'ToolCallOutcomeUnknown':
        turn.settledCalls.add(turnEvent.data.callId);
        return;
      case 'TurnWaiting': {
        const on = turnEvent.data.on;
        turn.status = 'waiting';
        turn.sinceMs = at;
        turn.leaseUntilMs = null;
        turn.leaseHolder = null;
        turn.waitingOn =
          on.kind === 'calls'
            ? { kind: 'calls', callIds: on.callIds }
            : on.kind === 'checkpoint'
              ? { kind: 'checkpoint', checkpointId: on.checkpointId }
              : { kind: 'jobs' };
        return;
      }
      case 'TurnResumed':
        turn.status = 'queued';
        turn.sinceMs = at;
        turn.waitingOn = null;
        return;
      case 'TurnCompleted':
      case 'TurnFailed':
      case 'TurnCancelled':
        turn.status =
          turnEvent.type === 'TurnCompleted' ? 'completed' : turnEvent.type === 'TurnFailed' ? 'failed' : 'cancelled';
        turn.sinceMs = at;
        turn.leaseUntilMs = null;
        turn.leaseHolder = null;
        turn.waitingOn = null;
        this.forgetTurnIfDone(turnId);
        return;
      default:
        return;
    }
  }

  /** An ended turn leaves the index once its task closed it and no claim of it is left standing. */
  private forgetTurnIfDone(turnId: string): void {
    const turn = this.turns.get(turnId);
    if (turn === undefined || turn.status === 'queued' || turn.status === 'running' || turn.status === 'waiting')
      return;
    const task = this.tasks.get(turn.taskId);
    if (task === undefined) {
      this.turns.delete(turnId);
      return;
    }
    if (task.activeTurnId === turnId) return;
    for (const claim of task.claims.values()) if (claim.turnId === turnId) return;
    this.turns.delete(turnId);
  }

  private forgetTask(task: TaskWork): void {
    this.tasks.delete(task.taskId);
    for (const turn of [...this.turns.values()]) if (turn.taskId === task.taskId) this.forgetTurnIfDone(turn.turnId);
  }
}
