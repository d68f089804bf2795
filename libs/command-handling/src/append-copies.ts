import type { NewEvent } from '@lomo/contracts';
import type { AppendResult, EventStore } from '@lomo/eventstore';

/**
 * Appends events a caller prepared whole, each with its own metadata, at `expected`: copies of
 * other streams' events (an operator's fork keeps each copy's actor and causation), for which no
 * decider runs on this stream. Checked by the caller against the deciders of what it copies; the
 * store's expected-revision check is the fence, as for every write of this layer.
 */
export function appendCopies(
  store: Pick<EventStore, 'append'>,
  streamId: string,
  events: readonly NewEvent[],
  expected: number | 'no_stream',
): Promise<AppendResult> {
  return store.append(streamId, events, expected);
}
