import { turnDecider, type TurnCommand } from '@lomo/domain';
import { decideAll } from '@lomo/command-handling';
import type { PlanView } from './plan-view';
import type { TurnAppend } from './runtime-output';

/** An append to the turn stream, decided against the worker's state at the revision it last saw. */
export function turnAppend(
  view: PlanView,
  intent: TurnAppend['intent'],
  commands: TurnCommand[],
  callId?: string,
): TurnAppend {
  return {
    kind: 'append',
    stream: 'turn',
    intent,
    events: decideAll(turnDecider, view.turn, commands),
    expected: view.turnRevision,
    ...(callId !== undefined ? { callId } : {}),
  };
}
