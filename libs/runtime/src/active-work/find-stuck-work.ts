import type { Finding, TaskWork, TurnWork } from './active-work-model';

/**
 * What the watchdog acts on, from the active-work index alone (cost ∝ active work). One finding
 * per task: acting on it means waking the task, and a wake re-reads everything anyway.
 */
export function findStuckWork(
  tasks: ReadonlyMap<string, TaskWork>,
  turns: ReadonlyMap<string, TurnWork>,
  nowMs: number,
  queuedTooLongMs: number,
): Finding[] {
  const found = new Map<string, Finding>();
  const add = (task: TaskWork, kind: Finding['kind'], turnId?: string) => {
    if (!found.has(task.taskId))
      found.set(task.taskId, {
        kind,
        taskId: task.taskId,
        workspaceId: task.workspaceId,
        ...(turnId ? { turnId } : {}),
      });
  };
  for (const turn of turns.values()) {
    const task = tasks.get(turn.taskId);
    if (task === undefined) continue;
    if (turn.status === 'running' && turn.leaseUntilMs !== null && turn.leaseUntilMs <= nowMs)
      add(task, 'lease-expired', turn.turnId);
    else if (turn.status === 'queued' && nowMs - turn.sinceMs >= queuedTooLongMs && task.status !== 'paused')
      add(task, 'queued-too-long', turn.turnId);
    else if (turn.status === 'waiting' && waitOver(turn, task)) add(task, 'wait-satisfied', turn.turnId);
    else if (isEnded(turn) && task.activeTurnId === turn.turnId) add(task, 'unclosed-turn', turn.turnId);
  }
  for (const task of tasks.values()) {
    if (found.has(task.taskId)) continue;
    const turnId = task.activeTurnId;
    if (turnId !== null && !turns.has(turnId) && nowMs - task.activeSinceMs >= queuedTooLongMs) {
      // Opened on the task, never started on its own stream (a crash between the two appends).
      add(task, 'queued-too-long', turnId);
      continue;
    }
    for (const claim of task.claims.values()) {
      const turn = turns.get(claim.turnId);
      const ended = turn === undefined ? claim.turnId !== turnId : isEnded(turn);
      if (ended) {
        add(task, 'unreleased-claims', claim.turnId);
        break;
      }
    }
    if (!found.has(task.taskId) && turnId === null && task.status !== 'paused' && task.unclaimed.size > 0)
      add(task, 'unclaimed-inbox');
    // The worker that decided to go on died before it opened the turn (or its wake was lost).
    if (
      !found.has(task.taskId) &&
      turnId === null &&
      task.status !== 'paused' &&
      task.continuationSinceMs !== null &&
      nowMs - task.continuationSinceMs >= queuedTooLongMs
    )
      add(task, 'pending-continuation');
  }
  return [...found.values()];
}

const isEnded = (turn: TurnWork) =>
  turn.status === 'completed' || turn.status === 'failed' || turn.status === 'cancelled';

function waitOver(turn: TurnWork, task: TaskWork): boolean {
  const on = turn.waitingOn;
  if (on === null) return false;
  if (on.kind === 'calls') return on.callIds.every((id) => turn.settledCalls.has(id));
  if (on.kind === 'checkpoint') return task.resolvedCheckpoints.has(on.checkpointId);
  // Jobs belong to the generation service, which wakes the task itself when they end.
  return false;
}
