import {
  claimKey,
  type ChangeNotice,
  type ChecklistItem,
  type ExistingTask,
  type TaskBase,
  type FinalTask,
  type InboxClaim,
  type InboxItem,
  type RunnableTask,
  type TaskState,
} from './task-state';

/** Delivered items no step has claimed, in delivery order. */
export function unclaimedItems(state: TaskState): InboxItem[] {
  if (state.status === 'none') return [];
  return Object.values(state.inbox).filter((i) => i.status === 'delivered');
}

/** The standing (unreleased) claim of this turn and step, if any: a takeover reuses it. */
export function claimFor(state: TaskState, turnId: string, step: number): InboxClaim | undefined {
  if (state.status === 'none') return undefined;
  const claim = state.claims[claimKey(turnId, step)];
  return claim && !claim.released ? claim : undefined;
}

/** The items of a standing claim, with their current text. */
export function claimedItems(state: TaskState, turnId: string, step: number): InboxItem[] {
  const claim = claimFor(state, turnId, step);
  if (!claim || state.status === 'none') return [];
  return claim.itemIds.flatMap((id) => (state.inbox[id] ? [state.inbox[id]] : []));
}

/** Standing claims of a turn from `fromStep` on: what a cancelled or failed turn must release. */
export function standingClaims(state: TaskState, turnId: string, fromStep = 1): InboxClaim[] {
  if (state.status === 'none') return [];
  return Object.values(state.claims).filter((c) => c.turnId === turnId && c.step >= fromStep && !c.released);
}

/**
 * The one approval rule (DESIGN.md §5): true only when the latest CheckpointResolved of an approval
 * checkpoint for exactly this call id approved it. Resolutions the agent recorded itself are not
 * folded into the state at all (task-evolve.ts), so they can neither approve nor take back.
 */
export function isApproved(state: TaskState, callId: string): boolean {
  return state.status !== 'none' && state.approvals[callId]?.decision === 'approve';
}

export function isRejected(state: TaskState, callId: string): boolean {
  return state.status !== 'none' && state.approvals[callId]?.decision === 'reject';
}

/** An open approval checkpoint for this call, so the runtime does not open a second one. */
export function openCheckpointFor(state: TaskState, callId: string) {
  if (state.status === 'none') return undefined;
  return Object.values(state.checkpoints).find((c) => c.callId === callId && c.resolution === null);
}

/** Whether a turn may run now: the task exists and is active or waiting (not paused or final). */
export const isRunnable = (state: TaskState): state is RunnableTask =>
  state.status === 'active' || state.status === 'waiting';

/** Stopped, completed or archived: nothing restarts it. */
export const isFinal = (state: TaskState): state is FinalTask =>
  state.status === 'stopped' || state.status === 'completed' || state.status === 'archived';

export const activeTurnOf = (state: TaskState): string | null => (state.status === 'none' ? null : state.activeTurnId);

/** Change notices no step was shown yet (at most one per artefact), oldest first. */
export function openNotices(state: TaskState): ChangeNotice[] {
  if (state.status === 'none') return [];
  return Object.values(state.notices).filter((n) => n.consumedBy === null);
}

/** The notices a step of a turn consumed (shown in that step's context). */
export function noticesConsumedAt(state: TaskState, turnId: string, step: number): ChangeNotice[] {
  if (state.status === 'none') return [];
  return Object.values(state.notices).filter((n) => n.consumedBy?.turnId === turnId && n.consumedBy.step === step);
}

/** Where the person's review of a checklist item stands (only items planned with `needsConfirmation` have one). */
export type ItemReview =
  | { state: 'not_needed' }
  | { state: 'needed' }
  | { state: 'open'; checkpointId: string }
  | { state: 'approved'; checkpointId: string; choice: string | null }
  | { state: 'adjust' | 'rejected'; checkpointId: string; note: string | null };

export function itemReview(task: Pick<TaskBase, 'checkpoints'>, item: ChecklistItem): ItemReview {
  const checkpoint = item.reviewCheckpointId === null ? undefined : task.checkpoints[item.reviewCheckpointId];
  if (checkpoint === undefined) return item.needsConfirmation ? { state: 'needed' } : { state: 'not_needed' };
  const { checkpointId, resolution } = checkpoint;
  if (resolution === null) return { state: 'open', checkpointId };
  switch (resolution.decision) {
    case 'approve':
    case 'choose':
      return { state: 'approved', checkpointId, choice: resolution.choice };
    case 'adjust':
    case 'answer':
      return { state: 'adjust', checkpointId, note: resolution.answer };
    case 'reject':
      return { state: 'rejected', checkpointId, note: resolution.answer };
  }
}

/**
 * Settled: skipped, or done, and for an item the person reviews, done with its latest review
 * approved. What depends on a reviewed stage waits for the review, and a plan is complete only
 * when every review is in.
 */
export function itemSettled(task: Pick<TaskBase, 'checkpoints'>, item: ChecklistItem): boolean {
  if (item.status === 'skipped') return true;
  if (item.status !== 'done') return false;
  return !item.needsConfirmation || itemReview(task, item).state === 'approved';
}

/**
 * The brief later prompts may show: the current version, or `left out` when a forgetting excluded
 * the step whose tool call wrote it (ContextExcluded.calls), until a new version is written.
 */
export function briefForContext(
  task: Pick<ExistingTask, 'brief' | 'excluded'>,
): { version: number; text: string } | { version: number; leftOut: true } | null {
  if (task.brief === null) return null;
  const { version, text, callId } = task.brief;
  return callId !== undefined && task.excluded.calls.includes(callId) ? { version, leftOut: true } : { version, text };
}

/** The brief's text as prompts may use it: null when there is none or a forgetting left it out. */
export function briefTextForContext(task: Pick<ExistingTask, 'brief' | 'excluded'>): string | null {
  const brief = briefForContext(task);
  return brief !== null && 'text' in brief ? brief.text : null;
}

/** Whether a forgetting left out the title of a checklist item (its plan came from an excluded step's call). */
export function checklistTitleLeftOut(task: Pick<ExistingTask, 'excluded'>, item: ChecklistItem): boolean {
  return item.plannedBy !== null && task.excluded.calls.includes(item.plannedBy);
}
