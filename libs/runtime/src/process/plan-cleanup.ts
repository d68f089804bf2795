import {
  isRunnable,
  taskDecider,
  unclaimedItems,
  type EndedTurn,
  type ExistingTask,
  type OpenCheckpoint,
  type TaskCommand,
} from '@lomo/domain';
import { decideAll } from '@lomo/command-handling';
import { reviewCheckpointIdFor } from './derived-ids';
import { budgetCard } from './plan-budget';
import { itemAwaitingReview, planContinuation, type SafeguardsOff } from './plan-continuation';
import type { PlanView } from './plan-view';
import type { RuntimeOutput } from './runtime-output';

const releaseReason = {
  completed: 'step_abandoned',
  failed: 'turn_failed',
  cancelled: 'turn_cancelled',
} as const;

/**
 * A turn that ended on its stream is closed on the task stream: claims of steps that never
 * committed are released (so no message is lost), the task's turn slot is freed, a lightweight
 * task whose turn completed is completed, and a stop or pause interrupted between its two appends
 * is finished. Every command is a no-op when already done, so whoever sees the ended turn first
 * (its worker, another worker, the watchdog) may do it.
 */
export function planCleanup(view: PlanView, turn: EndedTurn): RuntimeOutput {
  const outcome = turn.status;
  const task = view.task;
  const commands: TaskCommand[] = [
    { type: 'ReleaseClaims', turnId: turn.turnId, step: turn.steps.length + 1, reason: releaseReason[outcome] },
  ];
  const continues =
    turn.status === 'completed' && task.kind === 'persistent' && isRunnable(task) && task.activeTurnId === turn.turnId;
  // Decided with the close, in its append: whether the runtime goes on by itself (the worker
  // opens the next turn when it says continue), a review card for a stage the person reviews
  // when the model did not ask (article §8's fallback), and the plan's budget card when the next
  // stage is paid (shown with the review, so both are answered before it runs), opened before
  // the turn closes.
  const safeguardsOff = safeguardsOffIn(view);
  const budget =
    continues && safeguardsOff.budgetCheck !== true
      ? budgetCard(task, turn.turnId, view.planQuoter, view.workspaceId)
      : undefined;
  const continuation = continues
    ? planContinuation({
        task,
        turn,
        progressOf: (tool) => view.traits(tool)?.progress,
        limits: view.continuation,
        budgetNeeded: budget !== undefined,
        safeguardsOff,
      })
    : undefined;
  // no_fallback_card: no review card, so the person sees the stage done and nothing asking.
  if (continuation?.reason === 'review_needed' && safeguardsOff.fallback !== true) {
    const review = reviewCard(task, turn.turnId, safeguardsOff);
    if (review !== undefined) commands.push(review);
  }
  if (budget !== undefined && (continuation?.reason === 'review_needed' || continuation?.reason === 'budget_needed'))
    commands.push(budget);
  if (task.activeTurnId === turn.turnId) commands.push({ type: 'CloseTurn', turnId: turn.turnId, outcome });
  const cancel = turn.status === 'cancelled' ? turn.cancelledBy : null;
  if (cancel?.reason === 'task_stopped' && (isRunnable(task) || task.status === 'paused'))
    commands.push({ type: 'StopTask', by: cancel.by, cancelledTurnId: turn.turnId });
  else if (cancel?.reason === 'task_paused' && isRunnable(task)) commands.push({ type: 'PauseTask', by: cancel.by });
  else if (
    turn.status === 'completed' &&
    task.kind === 'lightweight' &&
    isRunnable(task) &&
    unclaimedItems(task).length === 0
  )
    commands.push({ type: 'CompleteTask', ...(turn.summary !== null ? { summary: turn.summary } : {}) });
  else if (continuation !== undefined) commands.push(continuation);
  const events = decideAll(taskDecider, task, commands);
  if (events.length === 0) return { kind: 'finish', reason: outcome };
  return { kind: 'append', stream: 'task', intent: 'close', events, expected: view.taskRevision };
}

/** The drills' mutation switches this planner honours (test-control README); none in production. */
function safeguardsOffIn(view: PlanView): SafeguardsOff {
  if (view.mutation === undefined) return {};
  return {
    ...(view.mutation('no_fallback_card') ? { fallback: true } : {}),
    ...(view.mutation('no_settled_check') ? { settledCheck: true } : {}),
    ...(view.mutation('no_budget_check') ? { budgetCheck: true } : {}),
  };
}

function reviewCard(task: ExistingTask, turnId: string, safeguardsOff: SafeguardsOff): OpenCheckpoint | undefined {
  const item = itemAwaitingReview(task, safeguardsOff);
  if (item === undefined) return undefined;
  return {
    type: 'OpenCheckpoint',
    checkpointId: reviewCheckpointIdFor(turnId, item.itemId),
    turnId,
    kind: 'review',
    itemId: item.itemId,
    question: `Please review "${item.title}" before the next stage: approve it, or adjust it with a note.`,
  };
}
