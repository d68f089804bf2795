import { DomainError } from '../decider';
import type { ReleaseLease, RenewLease, TakeLease } from './turn-commands';
import { TurnErrors } from './turn-errors';
import type { TurnEvent } from './turn-events';
import { duration, fenced, instant, openTurn, running } from './turn-guards';
import type { ExistingTurn, TurnState } from './turn-state';

const until = (now: number, leaseMs: number) => new Date(now + leaseMs).toISOString();

const live = (turn: ExistingTurn, now: number) => turn.lease !== null && Date.parse(turn.lease.leaseUntil) > now;

/**
 * A free or expired lease is taken with the next generation (a takeover fences the previous
 * holder out); anyone else is refused while the lease is live. A waiting turn is resumed first
 * (ResumeTurn), so taking it is refused.
 *
 * The worker named by a live lease takes it over too, with the next generation: a holder extends
 * its lease with RenewLease, so a TakeLease under its own id comes from a new incarnation (an
 * executor restarted with its persisted id, see libs/runtime/src/worker/reclaim-own-turns.ts)
 * that must not wait out the lease of the process it replaces. Raising the generation, rather
 * than renewing the old one, keeps the previous incarnation fenced: its next write is refused by
 * the turn stream's expected revision, and it no longer holds the current generation.
 */
export function takeLease(command: TakeLease, state: TurnState): TurnEvent[] {
  const turn = openTurn(state);
  if (turn.status === 'waiting') throw new DomainError(TurnErrors.TURN_WAITING, `Turn ${turn.turnId} is waiting`);
  const now = instant(command.now, 'now');
  const leaseUntil = until(now, duration(command.leaseMs, 'leaseMs'));
  const { workerId } = command;
  if (turn.lease !== null && live(turn, now) && turn.lease.workerId !== workerId)
    throw new DomainError(
      TurnErrors.LEASE_HELD,
      `Turn ${turn.turnId} is leased to ${turn.lease.workerId} until ${turn.lease.leaseUntil}`,
    );
  return [{ type: 'TurnLeased', data: { workerId, generation: turn.generation + 1, leaseUntil } }];
}

/**
 * The current generation's holder may renew even after its lease ran out, as long as nobody took
 * over: the generation is what fences, and a needless takeover would only repeat work.
 */
export function renewLease(command: RenewLease, state: TurnState): TurnEvent[] {
  const turn = running(fenced(state, command.generation));
  const now = instant(command.now, 'now');
  const leaseUntil = until(now, duration(command.leaseMs, 'leaseMs'));
  if (turn.lease === null || turn.lease.workerId !== command.workerId)
    throw new DomainError(TurnErrors.LEASE_LOST, `Worker ${command.workerId} does not hold turn ${turn.turnId}`);
  return [{ type: 'TurnLeaseRenewed', data: { workerId: command.workerId, generation: turn.generation, leaseUntil } }];
}

/** SIGTERM: the lease ends now so another worker takes over at once instead of waiting it out. */
export function releaseLease(command: ReleaseLease, state: TurnState): TurnEvent[] {
  const turn = fenced(state, command.generation);
  const now = instant(command.now, 'now');
  if (turn.lease === null || turn.lease.workerId !== command.workerId) return [];
  if (!live(turn, now)) return [];
  return [
    {
      type: 'TurnLeaseRenewed',
      data: { workerId: command.workerId, generation: turn.generation, leaseUntil: new Date(now).toISOString() },
    },
  ];
}
