import { DomainError } from '../decider';
import type { OpenCheckpoint, ResolveCheckpoint } from './task-commands';
import { TaskErrors } from './task-errors';
import type { TaskEvent } from './task-events';
import { activeTurn, invalid, notFinal, runnable } from './task-guards';
import type { Checkpoint, ExistingTask, TaskState } from './task-state';

/** An approval is for one call of the turn that asks: `{turnId}:{step}:{index}`. */
const callOfTurn = (callId: string, turnId: string) => callId.startsWith(`${turnId}:`);

const sameOptions = (a: Checkpoint['options'], b: OpenCheckpoint['options']) =>
  JSON.stringify(a) === JSON.stringify(b ?? []);

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function openCheckpoint(command: OpenCheckpoint, state: TaskState): TaskEvent[] {
  const task = runnable(state);
  const { checkpointId, turnId, kind, callId, question, itemId, options, argumentsHash, callQuote, planQuote } =
    command;
  const known = task.checkpoints[checkpointId];
  if (known) {
    if (
      known.turnId === turnId &&
      known.kind === kind &&
      known.callId === (callId ?? null) &&
      known.itemId === (itemId ?? null) &&
      sameOptions(known.options, options) &&
      known.argumentsHash === (argumentsHash ?? null) &&
      sameJson(known.callQuote, callQuote) &&
      sameJson(known.planQuote, planQuote)
    )
      return [];
    throw new DomainError(TaskErrors.CHECKPOINT_CONFLICT, `Checkpoint ${checkpointId} exists with other content`);
  }
  activeTurn(task, turnId);
  if (kind === 'approval' && callId === undefined) invalid('An approval checkpoint names the call id it authorizes');
  if (kind === 'approval' && (itemId !== undefined || options !== undefined))
    invalid('An approval is about its call, with no checklist item or options');
  if (kind !== 'approval' && (argumentsHash !== undefined || callQuote !== undefined))
    invalid('Only an approval names its call’s hash and quote');
  if ((kind === 'budget') !== (planQuote !== undefined))
    invalid('A budget card, and only it, carries the plan’s quote');
  if (kind === 'budget' && (callId !== undefined || itemId !== undefined || options !== undefined))
    invalid('A budget card is about the plan, with no call, item or options');
  if (planQuote !== undefined) {
    const sum = planQuote.lines.reduce((total, line) => total + line.amountMinor, 0);
    if (sum !== planQuote.totalMinor) invalid('A plan quote’s total is the sum of its lines');
    if (planQuote.amountMinor !== planQuote.totalMinor - planQuote.approvedMinor || planQuote.amountMinor <= 0)
      invalid('A budget card approves the plan’s total less what was approved before');
  }
  if (callId !== undefined && !callOfTurn(callId, turnId))
    throw new DomainError(TaskErrors.CALL_ID_MISMATCH, `Call ${callId} does not belong to turn ${turnId}`);
  if (itemId !== undefined && !task.checklist.some((i) => i.itemId === itemId))
    throw new DomainError(TaskErrors.CHECKLIST_ITEM_NOT_FOUND, `No checklist item ${itemId}`);
  if (options !== undefined) {
    if (options.length < 2) invalid('A choice offers at least two options');
    if (new Set(options.map((o) => o.optionId)).size !== options.length) invalid('Option ids are unique');
  }
  const data = {
    checkpointId,
    turnId,
    kind,
    question,
    ...(callId !== undefined ? { callId } : {}),
    ...(itemId !== undefined ? { itemId } : {}),
    ...(options !== undefined ? { options: options.map(({ optionId, label }) => ({ optionId, label })) } : {}),
    ...(argumentsHash !== undefined ? { argumentsHash } : {}),
    ...(callQuote !== undefined ? { callQuote: { ...callQuote } } : {}),
    ...(planQuote !== undefined ? { planQuote: { ...planQuote, lines: planQuote.lines.map((l) => ({ ...l })) } } : {}),
  };
  return [{ type: 'CheckpointOpened', data }];
}

const decisionsByKind: Record<Checkpoint['kind'], readonly string[]> = {
  approval: ['approve', 'reject'],
  question: ['answer', 'choose'],
  review: ['approve', 'reject', 'adjust', 'choose'],
  budget: ['approve', 'reject'],
};

/**
 * The person's decision, by the card's explicit id, at most once: a card decided before is
 * refused with CHECKPOINT_ALREADY_RESOLVED whatever the second decision is, so an approval can
 * never be consumed twice or changed after the fact (an ambiguous authorization refuses rather
 * than runs). An approval authorizes exactly the call id the checkpoint named, so the
 * resolution must repeat it: an approval of anything else is refused, never widened. Resolving
 * after a stop is refused: a stopped task is not woken by a late answer.
 *
 * A review about a checklist item also moves the item: approved or chosen, it is done with the
 * review as its evidence (it keeps the evidence it had when it was done already); adjusted, it
 * is in progress again with the person's note; rejected, it is blocked with the note.
 */
export function resolveCheckpoint(command: ResolveCheckpoint, state: TaskState): TaskEvent[] {
  const task = notFinal(state);
  const checkpoint = task.checkpoints[command.checkpointId];
  if (!checkpoint) throw new DomainError(TaskErrors.CHECKPOINT_NOT_FOUND, `No checkpoint ${command.checkpointId}`);
  if (checkpoint.resolution !== null)
    throw new DomainError(
      TaskErrors.CHECKPOINT_ALREADY_RESOLVED,
      `Checkpoint ${command.checkpointId} was resolved already: ${checkpoint.resolution.decision}`,
    );
  if (!decisionsByKind[checkpoint.kind].includes(command.decision))
    throw new DomainError(
      TaskErrors.INVALID_DECISION,
      `A ${checkpoint.kind} checkpoint cannot be resolved with ${command.decision}`,
    );
  if (command.decision === 'answer' && !command.answer) invalid('An answer carries its text');
  if (command.decision === 'adjust' && !command.answer) invalid('An adjustment carries the person’s note');
  if (command.decision === 'choose') {
    if (!checkpoint.options.some((o) => o.optionId === command.choice))
      throw new DomainError(
        TaskErrors.INVALID_DECISION,
        `Checkpoint ${checkpoint.checkpointId} offers no option ${command.choice ?? '(none)'}`,
      );
  } else if (command.choice !== undefined) invalid('A choice goes with the choose decision');
  if ((checkpoint.kind === 'approval' || command.callId !== undefined) && command.callId !== checkpoint.callId)
    throw new DomainError(
      TaskErrors.CALL_ID_MISMATCH,
      `Checkpoint ${checkpoint.checkpointId} is about call ${checkpoint.callId}, not ${command.callId ?? '(none)'}`,
    );
  const { checkpointId, decision, callId, answer, choice, resolvedBy } = command;
  const data = {
    checkpointId,
    decision,
    resolvedBy,
    ...(callId !== undefined ? { callId } : {}),
    ...(answer !== undefined ? { answer } : {}),
    ...(choice !== undefined ? { choice } : {}),
  };
  return [{ type: 'CheckpointResolved', data }, ...reviewedItem(task, checkpoint, command)];
}

function reviewedItem(task: ExistingTask, checkpoint: Checkpoint, command: ResolveCheckpoint): TaskEvent[] {
  if (checkpoint.kind !== 'review' || checkpoint.itemId === null) return [];
  const item = task.checklist.find((i) => i.itemId === checkpoint.itemId);
  // Re-planned away meanwhile: the resolution stands, there is no item to move.
  if (item === undefined) return [];
  const note = command.answer;
  const change = (status: 'done' | 'in_progress' | 'blocked', withReview: boolean): TaskEvent[] => [
    {
      type: 'ChecklistItemChanged',
      data: {
        itemId: item.itemId,
        status,
        ...(note !== undefined ? { note } : {}),
        ...(withReview ? { evidence: { kind: 'review' as const, checkpointId: checkpoint.checkpointId } } : {}),
      },
    },
  ];
  switch (command.decision) {
    case 'answer':
      return [];
    case 'approve':
    case 'choose':
      return item.status === 'done' ? (note !== undefined ? change('done', false) : []) : change('done', true);
    case 'adjust':
      return change('in_progress', false);
    case 'reject':
      return change('blocked', false);
  }
}
