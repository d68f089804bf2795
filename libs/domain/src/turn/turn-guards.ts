import { DomainError } from '../decider';
import { TurnErrors } from './turn-errors';
import { isTurnTerminal } from './turn-queries';
import type { ExistingTurn, LiveTurn, RunningTurn, TurnState } from './turn-state';

export function existingTurn(state: TurnState): ExistingTurn {
  if (state.status === 'none') throw new DomainError(TurnErrors.TURN_NOT_FOUND, 'The turn does not exist');
  return state;
}

export function openTurn(state: TurnState): LiveTurn {
  const turn = existingTurn(state);
  if (isTurnTerminal(turn)) throw new DomainError(TurnErrors.TURN_CLOSED, `Turn ${turn.turnId} is ${turn.status}`);
  return turn;
}

/**
 * A command naming a generation other than the current lease's comes from a worker that lost the
 * turn. (The store's expected revision is the real fence; this refuses the same thing when the
 * stale worker did re-read.)
 */
export function fenced(state: TurnState, generation: number): LiveTurn {
  const turn = openTurn(state);
  if (generation !== turn.generation)
    throw new DomainError(
      TurnErrors.STALE_GENERATION,
      `Turn ${turn.turnId} is at generation ${turn.generation}, not ${generation}`,
    );
  return turn;
}

export function running(turn: ExistingTurn): RunningTurn {
  if (turn.status === 'waiting') throw new DomainError(TurnErrors.TURN_WAITING, `Turn ${turn.turnId} is waiting`);
  if (turn.status !== 'running')
    throw new DomainError(TurnErrors.TURN_NOT_RUNNING, `Turn ${turn.turnId} is ${turn.status}`);
  return turn;
}

export function invalid(message: string): never {
  throw new DomainError(TurnErrors.INVALID_COMMAND, message);
}

/** Epoch milliseconds of an ISO 8601 instant from the command (the domain has no clock). */
export function instant(iso: string, what: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) invalid(`${what} is not an ISO 8601 instant: ${iso}`);
  return ms;
}

export function duration(ms: number, what: string): number {
  if (!Number.isInteger(ms) || ms <= 0) invalid(`${what} is a positive whole number of milliseconds`);
  return ms;
}
