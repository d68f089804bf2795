import {
  ANY,
  BACKWARDS,
  END,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  type AppendExpectedRevision,
  type CurrentRevision,
  type Direction,
  type ReadRevision,
} from '@eventstore/db-client';
import type { ExpectedRevision } from '@lomo/contracts';
import type { ReadStreamOptions } from '../event-store.port';

/**
 * Both sides number revisions from 0, so a revision maps one to one; only the representation
 * differs (bigint in the client, a safe integer in the port).
 */
export function toClientExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

/** A revision the server returned. Beyond 2^53 it cannot be a port revision, so that is refused loudly. */
export function fromClientRevision(revision: bigint): number {
  if (revision < 0n || revision > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`EventStoreDB returned revision ${revision}, outside 0..2^53-1`);
  }
  return Number(revision);
}

/** The "actual" of a wrong-expected-version answer; older servers send -1 for an absent stream. */
export function fromClientCurrentRevision(current: CurrentRevision): number | 'no_stream' {
  if (current === NO_STREAM || current < 0n) return 'no_stream';
  return fromClientRevision(current);
}

export interface ClientStreamRead {
  direction: Direction;
  fromRevision: ReadRevision;
  maxCount: number;
}

/**
 * The port's 'end' is the last event, inclusive; the server's END marker is where the next event
 * would go. Backwards from END starts at the last event, so forwards-from-'end' becomes a one-event
 * read backwards. Backwards from 'start' is revision 0 given as a number, not the START marker,
 * whose meaning for a backwards read is not the same on every server version.
 */
export function toClientStreamRead(options: ReadStreamOptions): ClientStreamRead {
  const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
  const from = options.fromRevision;
  if (options.direction === 'backwards') {
    const fromRevision = from === undefined || from === 'end' ? END : from === 'start' ? 0n : BigInt(from);
    return { direction: BACKWARDS, fromRevision, maxCount };
  }
  if (from === 'end') return { direction: BACKWARDS, fromRevision: END, maxCount: Math.min(maxCount, 1) };
  return { direction: FORWARDS, fromRevision: from === undefined || from === 'start' ? START : BigInt(from), maxCount };
}
