import { isoDateTime, ValidationError, validateNewEvent, type ExpectedRevision, type NewEvent } from '@lomo/contracts';
import type { ImportedEvent } from './event-store.port';

/**
 * Backend-neutral checks of an append call, done before any storage is touched so a refused
 * call writes nothing. Returns the schema version of each event, in order.
 */
export function validateAppendRequest(
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): number[] {
  assertExpectedRevision(expected);
  if (events.length === 0) {
    throw new ValidationError('An append needs at least one event', [{ path: 'events', message: 'must not be empty' }]);
  }
  const versions = new Array<number>(events.length);
  const seen = new Set<string>();
  for (let i = 0; i < events.length; i += 1) {
    versions[i] = validateNewEvent(streamId, events[i]).version;
    // Two events with one id in one call can never both be stored, and the idempotency rule
    // could not tell which one a repeat refers to.
    if (seen.has(events[i].eventId)) {
      throw new ValidationError(`Event id ${events[i].eventId} appears twice in one append`, [
        { path: `events.${i}.eventId`, message: 'duplicate event id in the same append' },
      ]);
    }
    seen.add(events[i].eventId);
  }
  return versions;
}

/** `validateAppendRequest` for `appendImported`: each event's own time must be an ISO 8601 instant. */
export function validateImportRequest(
  streamId: string,
  events: readonly ImportedEvent[],
  expected: ExpectedRevision,
): number[] {
  const versions = validateAppendRequest(streamId, events, expected);
  events.forEach((event, i) => {
    if (!isoDateTime.safeParse(event.occurredAt).success)
      throw new ValidationError(`occurredAt of imported event ${event.eventId} is not an ISO 8601 time`, [
        { path: `events.${i}.occurredAt`, message: 'an ISO 8601 date-time with offset' },
      ]);
  });
  return versions;
}

export function assertExpectedRevision(expected: ExpectedRevision): void {
  if (expected === 'any' || expected === 'no_stream' || expected === 'stream_exists') return;
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return;
  throw new ValidationError(`Invalid expected revision ${String(expected)}`, [
    { path: 'expectedRevision', message: "a revision >= 0, 'no_stream', 'stream_exists' or 'any'" },
  ]);
}

/** `current` is the stream's last revision, -1 when the stream does not exist. */
export function expectationHolds(expected: ExpectedRevision, current: number): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return current === -1;
    case 'stream_exists':
      return current >= 0;
    default:
      return current === expected;
  }
}

/**
 * First revision a repeat of the call must have found its events at, or undefined when the
 * expectation does not pin one ('any' and 'stream_exists' accept them anywhere, contiguous).
 */
export function impliedFirstRevision(expected: ExpectedRevision): number | undefined {
  if (expected === 'no_stream') return 0;
  if (typeof expected === 'number') return expected + 1;
  return undefined;
}

export const actualRevision = (current: number): number | 'no_stream' => (current < 0 ? 'no_stream' : current);
