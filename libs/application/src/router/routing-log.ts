import { AggregateStream, handleCommand } from '@lomo/command-handling';
import { deterministicUuid, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import { mainLineDecider, mainLineEventTypes } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import type { RoutingDecision } from './routing-decision';

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

/**
 * Records the decision through the main-line decider, or finds the one recorded first. The
 * recorded decision wins over a fresh one: after a crash the facts may have changed (the task was
 * stopped meanwhile), and acting on anything but what the log says would make the log lie.
 */
export async function recordDecision(
  deps: { store: EventStore; ids: IdGenerator },
  mainStreamId: string,
  messageRevision: number,
  decision: RoutingDecision,
  metadata: WriteMetadata,
): Promise<{ decision: RoutingDecision; written: boolean }> {
  const result = await handleCommand(
    deps.store,
    mainStreamId,
    mainLineDecider,
    { type: 'RecordRoutingDecision', ...decision },
    {
      eventTypes: mainLineEventTypes,
      metadata,
      ids: deps.ids,
      fromRevision: messageRevision,
      eventIdFor: () => routingEventIdFor(decision.messageId),
    },
  );
  return { decision: result.state.decisions[decision.messageId] ?? decision, written: result.changed };
}
