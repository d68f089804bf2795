import { isRunnable, isTurnTerminal, leaseExpired, waitSatisfied, type ExistingTurn } from '@lomo/domain';
import { planCleanup } from './plan-cleanup';
import { planNextStep } from './plan-next-step';
import { planLedger } from './plan-ledger';
import type { PlanView } from './plan-view';
import type { RuntimeOutput } from './runtime-output';
import { turnAppend } from './turn-append';

/**
 * The coordinating process of one turn, as a pure decider: given what the worker knows, the one
 * next thing to do. The worker executes it (append, call the model, run a tool), folds what it
 * appended and asks again. Order of concerns: the turn exists, is not over, is held by this
 * worker; then the ledger of the last step; then the step boundary (done, limit, claim, model).
 */
export function planTurn(view: PlanView): RuntimeOutput {
  const turn = view.turn;
  if (turn.status === 'none') {
    if (view.task.activeTurnId !== view.turnId) return { kind: 'finish', reason: 'not-runnable' };
    return turnAppend(view, 'start-turn', [
      { type: 'StartTurn', turnId: view.turnId, taskId: view.taskId, reason: view.wakeReason },
    ]);
  }
  if (isTurnTerminal(turn)) return planCleanup(view, turn);
  // A stop or pause cancels the turn first; until that lands, nothing may run.
  if (!isRunnable(view.task) || view.task.activeTurnId !== view.turnId)
    return { kind: 'finish', reason: 'not-runnable' };
  if (turn.status === 'waiting') {
    const ready = waitSatisfied(turn, {
      checkpointResolved: (id) => (view.task.checkpoints[id]?.resolution ?? null) !== null,
    });
    return ready
      ? turnAppend(view, 'resume', [{ type: 'ResumeTurn', reason: view.wakeReason }])
      : { kind: 'finish', reason: 'waiting' };
  }
  if (!holdsLease(view, turn)) {
    // Taken over while running. (A turn this worker let wait and that was resumed is queued: take it again.)
    if (view.generation > 0 && turn.status === 'running') return { kind: 'finish', reason: 'lease-lost' };
    // A live lease under this worker's own id with no session here is a previous incarnation's
    // (a restart, see worker/reclaim-own-turns.ts): take it over now at the next generation.
    if (turn.status === 'queued' || leaseExpired(turn, view.now) || turn.lease?.workerId === view.workerId)
      return turnAppend(view, 'take-lease', [
        { type: 'TakeLease', workerId: view.workerId, now: view.now, leaseMs: view.leaseMs },
      ]);
    return { kind: 'finish', reason: 'held-elsewhere' };
  }
  return planLedger(view, turn) ?? planNextStep(view, turn);
}

/**
 * Held by this worker's generation. Expiry by the clock is not checked here: the holder may go
 * on until someone takes over, and a takeover is fenced by the store, not by this comparison.
 */
function holdsLease(view: PlanView, turn: ExistingTurn): boolean {
  return (
    view.generation > 0 &&
    turn.status === 'running' &&
    turn.generation === view.generation &&
    turn.lease?.workerId === view.workerId
  );
}
