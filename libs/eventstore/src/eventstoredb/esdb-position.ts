import { ValidationError } from '@lomo/contracts';
import type { Position as ClientPosition } from '@eventstore/db-client';
import type { Position } from '../event-store.port';

/**
 * An EventStoreDB log position is a pair of unsigned 64-bit numbers (commit, prepare). They
 * pass 2^53 on a large log, so they are bigints end to end and printed as "<commit>:<prepare>"
 * in decimal; no code path turns them into a Number.
 */
const MAX_U64 = (1n << 64n) - 1n;
const POSITION_PATTERN = /^(0|[1-9][0-9]{0,19}):(0|[1-9][0-9]{0,19})$/;

export const formatPosition = (position: ClientPosition): Position => `${position.commit}:${position.prepare}`;

export function parsePosition(position: Position, path = 'position'): ClientPosition {
  const match = typeof position === 'string' ? POSITION_PATTERN.exec(position) : null;
  if (match !== null) {
    const commit = BigInt(match[1]);
    const prepare = BigInt(match[2]);
    if (commit <= MAX_U64 && prepare <= MAX_U64) return { commit, prepare };
  }
  throw new ValidationError(`"${String(position)}" is not a position of this event store`, [
    { path, message: 'not a position returned by this store' },
  ]);
}

/** undefined = before the first event. */
export function parseFromPosition(
  from: Position | 'start' | undefined,
  path = 'fromPosition',
): ClientPosition | undefined {
  return from === undefined || from === 'start' ? undefined : parsePosition(from, path);
}

/** $all is ordered by commit position, then prepare position. */
export function comparePositions(a: ClientPosition, b: ClientPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** True when `position` comes strictly after `after` (undefined = before everything). */
export const isAfter = (position: ClientPosition, after: ClientPosition | undefined): boolean =>
  after === undefined || comparePositions(position, after) > 0;
