import { ValidationError } from '@lomo/contracts';
import type { Position } from '../event-store.port';

/**
 * SQLite positions are the `position` column printed in decimal. Callers treat them as opaque;
 * only this adapter parses them back.
 */
export const formatPosition = (position: number): Position => String(position);

export function parsePosition(position: Position, path = 'position'): number {
  if (typeof position === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(position)) {
    const value = Number(position);
    if (Number.isSafeInteger(value)) return value;
  }
  throw new ValidationError(`"${String(position)}" is not a position of this event store`, [
    { path, message: 'not a position returned by this store' },
  ]);
}

/** 'start' (or nothing) is before the first event, position 0 (positions start at 1). */
export function parseFromPosition(from: Position | 'start' | undefined, path = 'fromPosition'): number {
  return from === undefined || from === 'start' ? 0 : parsePosition(from, path);
}
