/**
 * Global positions are opaque to the port (libs/eventstore/src/event-store.port.ts), but the two
 * adapters print them in known forms: SQLite a decimal row number, EventStoreDB
 * "<commit>:<prepare>" (libs/eventstore/src/eventstoredb/esdb-position.ts). Two positions of one
 * form are compared as numbers (bigints: EventStoreDB's pass 2^53); anything else is not
 * comparable, and callers refuse it rather than guess.
 */
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const COMMIT_PREPARE = /^(0|[1-9][0-9]*):(0|[1-9][0-9]*)$/;

const parse = (position: string): bigint[] | undefined => {
  if (DECIMAL.test(position)) return [BigInt(position)];
  const pair = COMMIT_PREPARE.exec(position);
  return pair === null ? undefined : [BigInt(pair[1]), BigInt(pair[2])];
};

/** Negative, zero or positive as `a` comes before, at or after `b`; undefined when not comparable. */
export function comparePositions(a: string, b: string): number | undefined {
  const x = parse(a);
  const y = parse(b);
  if (x === undefined || y === undefined || x.length !== y.length) return undefined;
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

export const isComparablePosition = (position: string): boolean => parse(position) !== undefined;

/** Global order of events read from one store; by time when a position is not comparable. */
export function compareEventOrder(
  a: { metadata: { globalPosition: string; occurredAt: string } },
  b: { metadata: { globalPosition: string; occurredAt: string } },
): number {
  const byPosition = comparePositions(a.metadata.globalPosition, b.metadata.globalPosition);
  if (byPosition !== undefined) return byPosition;
  return a.metadata.occurredAt < b.metadata.occurredAt ? -1 : a.metadata.occurredAt > b.metadata.occurredAt ? 1 : 0;
}

/**
 * A position as a number where the store's positions are counts (SQLite: the row's position, so
 * the head is the number of events in the log); undefined where they are opaque (EventStoreDB).
 */
export function numericPosition(position: string | undefined): number | undefined {
  if (position === undefined || !DECIMAL.test(position)) return undefined;
  const value = Number(position);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Positions between `applied` and the head: events of every category, so an upper bound of what a
 * projection has not applied. Null when either position is opaque; the whole head when nothing
 * was applied yet.
 */
export function positionsBehind(applied: string | undefined, head: string | undefined): number | null {
  const headAt = head === undefined ? 0 : numericPosition(head);
  const appliedAt = applied === undefined ? 0 : numericPosition(applied);
  if (headAt === undefined || appliedAt === undefined) return null;
  return Math.max(0, headAt - appliedAt);
}
