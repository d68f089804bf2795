import type { Position } from '@lomo/eventstore';

/**
 * A position as a number where the store's positions are counts (SQLite: the row's position, so
 * the head is the number of events in the log); undefined where they are opaque (EventStoreDB).
 */
export function numericPosition(position: Position | undefined): number | undefined {
  if (position === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(position)) return undefined;
  const value = Number(position);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Positions between `applied` and the head: events of every category, so an upper bound of what a
 * projection has not applied. Null when either position is opaque; the whole head when nothing
 * was applied yet.
 */
export function positionsBehind(applied: Position | undefined, head: Position | undefined): number | null {
  const headAt = head === undefined ? 0 : numericPosition(head);
  const appliedAt = applied === undefined ? 0 : numericPosition(applied);
  if (headAt === undefined || appliedAt === undefined) return null;
  return Math.max(0, headAt - appliedAt);
}
