import {
  itemReview,
  itemSettled,
  type ChecklistItem,
  type CompletedTurn,
  type ContinuationDecision,
  type ContinuationReason,
  type ExistingTask,
  type ProgressKind,
  type RecordContinuation,
} from '@lomo/domain';
import type { ToolProgress } from '@lomo/tools';

/** The runtime's bounds on going on by itself (LOMO_CONTINUATION_* in libs/config). */
export interface ContinuationLimits {
  /** Turns the runtime may start by itself in a row before it stops and tells the person. */
  maxAutoTurns: number;
  /** Completed turns in a row without progress after which auto-continuation stops. */
  maxTurnsWithoutProgress: number;
}

export interface ContinuationInput {
  /** The task as it was when the turn completed (before its close is folded). */
  task: ExistingTask;
  turn: CompletedTurn;
  /** What an ok result of a tool counts as (its definition's `progress`). */
  progressOf(tool: string): ToolProgress | undefined;
  limits: ContinuationLimits;
  /** The next stage is paid and the plan's budget does not cover it: a budget card opens with this decision. */
  budgetNeeded?: boolean;
  /** Drills' mutations (test-control README): safeguards of this decision switched off. */
  safeguardsOff?: SafeguardsOff;
}

export interface SafeguardsOff {
  /** no_fallback_card: a turn that ends with items ready waits for the person instead of going on. */
  fallback?: boolean;
  /** no_settled_check: a stage whose one review was approved is asked about again. */
  settledCheck?: boolean;
  /** no_budget_check: no budget card before a paid stage the plan's budget does not cover. */
  budgetCheck?: boolean;
}

/** A stage the person reviews that is done and has no review card yet: the card to open. */
export function itemAwaitingReview(task: ExistingTask, safeguardsOff: SafeguardsOff = {}): ChecklistItem | undefined {
  return task.checklist.find((item) => {
    if (item.status !== 'done') return false;
    const review = itemReview(task, item).state;
    if (review === 'approved' && safeguardsOff.settledCheck === true) return reviewCardsOf(task, item) === 1;
    return review === 'needed' || review === 'adjust' || review === 'rejected';
  });
}

/** Review cards ever opened for the item: no_settled_check asks once more, not forever. */
const reviewCardsOf = (task: ExistingTask, item: ChecklistItem) =>
  Object.values(task.checkpoints).filter((c) => c.kind === 'review' && c.itemId === item.itemId).length;

/**
 * After every completed turn of a persistent task: go on, or stop and say why. Decided from what
 * the streams hold (checklist, checkpoints, the turn's steps and tool results, the previous
 * decision), never from how the model ended its turn: a model that "stops" after a stage with
 * items left is continued, one that talks on without progress is stopped.
 *
 * Order: the person first (an open card, a review), then the plan (none, complete, nothing ready,
 * a paid stage next without the plan's budget), then the runtime's own bounds. Progress is a new artefact version, a job ordered, an item done since the
 * last decision, or the person's input consumed; rewording the plan is not.
 */
export function planContinuation(input: ContinuationInput): RecordContinuation {
  const { task, turn, limits } = input;
  const progress = progressOf(input);
  const previous = task.continuation;
  const turnsWithoutProgress = progress.length > 0 ? 0 : (previous?.turnsWithoutProgress ?? 0) + 1;
  // The run of turns the runtime started: this turn belongs to it only if a continuation started it.
  const autoSoFar = turn.reason === 'continuation' ? (previous?.autoTurns ?? 0) : 0;
  const itemsDone = task.checklist.filter((i) => i.status === 'done').length;

  const decide = (decision: ContinuationDecision, reason: ContinuationReason): RecordContinuation => ({
    type: 'RecordContinuation',
    turnId: turn.turnId,
    decision,
    reason,
    progress,
    autoTurns: decision === 'continue' ? autoSoFar + 1 : autoSoFar,
    turnsWithoutProgress,
    itemsDone,
  });

  if (task.status !== 'active' && task.status !== 'waiting') return decide('stop', 'not_running');
  if (Object.values(task.checkpoints).some((c) => c.resolution === null))
    return decide('await_person', 'checkpoint_open');
  if (task.checklist.length === 0) return decide('await_person', 'no_plan');
  if (itemAwaitingReview(task, input.safeguardsOff) !== undefined) return decide('await_person', 'review_needed');
  if (task.checklist.every((item) => itemSettled(task, item))) return decide('finish', 'checklist_complete');
  if (!task.checklist.some((item) => ready(task, item))) return decide('stop', 'blocked');
  if (input.budgetNeeded === true) return decide('await_person', 'budget_needed');
  if (turnsWithoutProgress >= limits.maxTurnsWithoutProgress) return decide('stop', 'no_progress');
  if (autoSoFar >= limits.maxAutoTurns) return decide('stop', 'turn_limit');
  // no_fallback_card: the model stopped mid-work and the runtime does not go on for it.
  if (input.safeguardsOff?.fallback === true) return decide('await_person', 'pending_items');
  return decide('continue', 'pending_items');
}

/**
 * Can be worked on now: not settled, not blocked, not done and waiting for its review, and
 * everything it depends on settled (a reviewed stage counts once the person approved it).
 */
function ready(task: ExistingTask, item: ChecklistItem): boolean {
  if (item.status === 'done' || item.status === 'skipped' || item.status === 'blocked') return false;
  return item.dependsOn.every((id) => {
    const dependency = task.checklist.find((i) => i.itemId === id);
    return dependency !== undefined && itemSettled(task, dependency);
  });
}

function progressOf(input: ContinuationInput): ProgressKind[] {
  const { task, turn } = input;
  const kinds = new Set<ProgressKind>();
  for (const step of turn.steps) {
    if (step.consumedItemIds.length > 0) kinds.add('person_input');
    for (const call of step.calls) {
      if (call.outcome !== 'ok') continue;
      const kind = input.progressOf(call.tool);
      if (kind !== undefined) kinds.add(kind);
    }
  }
  const doneBefore = task.continuation?.itemsDone ?? 0;
  if (task.checklist.filter((i) => i.status === 'done').length > doneBefore) kinds.add('item_done');
  const order: readonly ProgressKind[] = ['artifact_version', 'item_done', 'job_submitted', 'person_input'];
  return order.filter((k) => kinds.has(k));
}
