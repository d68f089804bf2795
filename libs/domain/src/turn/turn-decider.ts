import { assertNever, type Decider } from '../decider';
import { completeToolCall, recordToolOutcomeUnknown, declineToolCall, startToolCall } from './decide-calls';
import { releaseLease, renewLease, takeLease } from './decide-lease';
import { commitStep } from './decide-step';
import {
  cancelTurn,
  completeTurn,
  completeWaitingTurn,
  failTurn,
  resumeTurn,
  startTurn,
  waitTurn,
} from './decide-turn-lifecycle';
import type { TurnCommand } from './turn-commands';
import type { TurnEvent } from './turn-events';
import { evolveTurn } from './turn-evolve';
import { initialTurnState, type TurnState } from './turn-state';

export function decideTurn(command: TurnCommand, state: TurnState): TurnEvent[] {
  switch (command.type) {
    case 'StartTurn':
      return startTurn(command, state);
    case 'TakeLease':
      return takeLease(command, state);
    case 'RenewLease':
      return renewLease(command, state);
    case 'ReleaseLease':
      return releaseLease(command, state);
    case 'CommitStep':
      return commitStep(command, state);
    case 'StartToolCall':
      return startToolCall(command, state);
    case 'CompleteToolCall':
      return completeToolCall(command, state);
    case 'RecordToolOutcomeUnknown':
      return recordToolOutcomeUnknown(command, state);
    case 'DeclineToolCall':
      return declineToolCall(command, state);
    case 'WaitTurn':
      return waitTurn(command, state);
    case 'ResumeTurn':
      return resumeTurn(command, state);
    case 'CompleteTurn':
      return completeTurn(command, state);
    case 'CompleteWaitingTurn':
      return completeWaitingTurn(command, state);
    case 'FailTurn':
      return failTurn(command, state);
    case 'CancelTurn':
      return cancelTurn(command, state);
    default:
      return assertNever(command, 'turn command');
  }
}

/** The turn aggregate: lease and generation, committed steps and the tool-call ledger. */
export const turnDecider: Decider<TurnCommand, TurnEvent, TurnState> = {
  initialState: initialTurnState,
  decide: decideTurn,
  evolve: evolveTurn,
};
