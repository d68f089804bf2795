import { makeCallId } from '@lomo/contracts';
import { DomainError } from '../decider';
import type { CommitStep } from './turn-commands';
import { TurnErrors } from './turn-errors';
import type { TurnEvent } from './turn-events';
import { fenced, invalid, running } from './turn-guards';
import { nextStep } from './turn-queries';
import type { TurnState } from './turn-state';

/**
 * Commits a model step: its reply, the tool calls it intends (ids `{turnId}:{step}:{index}`, so a
 * retry or a takeover derives the same ids) and the inbox items it consumed. Steps commit in
 * order; a step that is already committed is refused, so a stale worker cannot commit it twice.
 */
export function commitStep(command: CommitStep, state: TurnState): TurnEvent[] {
  const turn = running(fenced(state, command.generation));
  const expected = nextStep(turn);
  if (command.step !== expected)
    throw new DomainError(
      TurnErrors.STEP_OUT_OF_ORDER,
      `Turn ${turn.turnId} commits step ${expected} next, not ${command.step}`,
    );
  command.toolCallIntents.forEach((intent, index) => {
    const id = makeCallId(turn.turnId, command.step, index);
    if (intent.callId !== id)
      throw new DomainError(
        TurnErrors.INVALID_CALL_ID,
        `Tool call ${index} of this step has id ${id}, not ${intent.callId}`,
      );
  });
  if (new Set(command.consumedItemIds).size !== command.consumedItemIds.length)
    invalid('consumedItemIds lists each item once');
  const { step, reply, toolCallIntents, consumedItemIds, usage, promptRef, finishReason, context } = command;
  return [
    {
      type: 'ModelStepCommitted',
      data: {
        step,
        reply,
        toolCallIntents: [...toolCallIntents],
        consumedItemIds: [...consumedItemIds],
        usage,
        promptRef,
        finishReason,
        ...(context !== undefined ? { context } : {}),
      },
    },
  ];
}
