import {
  claimFor,
  MAX_ITEMS_PER_CLAIM,
  noticesConsumedAt,
  openNotices,
  taskDecider,
  unclaimedItems,
  type ExistingTask,
  type ExistingTurn,
  type TaskCommand,
} from '@lomo/domain';
import { extractConstraints } from '../context/constraints';
import { decideAll } from '@lomo/command-handling';
import type { PlanView } from './plan-view';
import { turnAppend } from './turn-append';
import type { RuntimeOutput } from './runtime-output';

export const STEP_LIMIT_REACHED = 'STEP_LIMIT_REACHED';
const MAX_SUMMARY = 20_000;

/**
 * At a step boundary the runtime, not the model, decides: a step without tool calls ends the
 * turn unless a message is still unread; the step limit fails a runaway turn; otherwise the next
 * step claims what is in the inbox (or reuses its standing claim) and asks the model.
 * Open change notices never keep a turn going or wake one (DESIGN.md issue 14): they only ride
 * along with a step that runs anyway, consumed in the claim's append so the step shows them.
 */
export function planNextStep(view: PlanView, turn: ExistingTurn): RuntimeOutput {
  const last = turn.steps.at(-1);
  const step = turn.steps.length + 1;
  const unread = unclaimedItems(view.task).length;
  const standing = claimFor(view.task, view.turnId, step);
  if (last !== undefined && last.callIds.length === 0 && unread === 0 && standing === undefined) {
    const summary = last.reply.length > MAX_SUMMARY ? `${last.reply.slice(0, MAX_SUMMARY - 1)}…` : last.reply;
    return turnAppend(view, 'complete', [
      {
        type: 'CompleteTurn',
        generation: view.generation,
        steps: turn.steps.length,
        ...(summary.trim() !== '' ? { summary } : {}),
      },
    ]);
  }
  if (turn.steps.length >= view.maxSteps) {
    return turnAppend(view, 'fail', [
      {
        type: 'FailTurn',
        generation: view.generation,
        error: {
          code: STEP_LIMIT_REACHED,
          message: `The turn reached its limit of ${view.maxSteps} steps without finishing.`,
          retriable: false,
        },
      },
    ]);
  }
  const unshownNotices =
    openNotices(view.task).length > 0 && noticesConsumedAt(view.task, view.turnId, step).length === 0;
  if ((standing === undefined && unread > 0) || unshownNotices) {
    return {
      kind: 'append',
      stream: 'task',
      intent: 'claim',
      events: decideAll(taskDecider, view.task, claimCommands(view.task, view.turnId, step)),
      expected: view.taskRevision,
    };
  }
  return { kind: 'callModel', step, claimedItemIds: standing?.itemIds ?? [] };
}

/**
 * The claim, and the person's constraints read from each claimed message in the same append
 * (context/constraints.ts), so a later step's prompt knows which earlier words were withdrawn.
 */
function claimCommands(task: ExistingTask, turnId: string, step: number): TaskCommand[] {
  const commands: TaskCommand[] = [{ type: 'ClaimInboxItems', turnId, step }];
  let state: ExistingTask = task;
  for (const item of unclaimedItems(task).slice(0, MAX_ITEMS_PER_CLAIM)) {
    const constraints = extractConstraints(state, item.itemId, item.text);
    if (constraints.length === 0) continue;
    const note: TaskCommand = { type: 'NoteConstraints', itemId: item.itemId, turnId, step, constraints };
    commands.push(note);
    for (const event of taskDecider.decide(note, state)) state = taskDecider.evolve(state, event) as ExistingTask;
  }
  return commands;
}
