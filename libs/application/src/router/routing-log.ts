import { AggregateStream } from '@lomo/command-handling';
import { deterministicUuid, type EventDataMap } from '@lomo/contracts';
import { mainLineDecider, mainLineEventTypes } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
type RoutingDecision = EventDataMap['RoutingDecided'];

/** One decision per message: its event id derives from the message id. */
export const routingEventIdFor = (messageId: string) => deterministicUuid('lomo.routing-decided', messageId);

/**
 * The decision already recorded for a message, if any. It is written after the message on the
 * same stream, so the main line is folded from the message's revision on: the cost does not grow
 * with the length of the person's main line.
 */
export async function findRecordedDecision(
  store: EventStore,
  mainStreamId: string,
  messageRevision: number,
  messageId: string,
): Promise<RoutingDecision | undefined> {
  const tail = await AggregateStream.read(store, mainStreamId, mainLineDecider, mainLineEventTypes, {
    fromRevision: messageRevision,
  });
  return tail.state.decisions[messageId];
}
