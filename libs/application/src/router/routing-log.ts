import { deterministicUuid, mainEvents, type WriteMetadata } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { RoutingDecision } from './routing-decision';

/** One decision per message: its event id derives from the message id. */
export const routingEventIdFor = (messageId: string) => deterministicUuid('lomo.routing-decided', messageId);

const PAGE = 100;

/**
 * The decision already recorded for a message, if any. It is written after the message on the
 * same stream, so the search starts at the message's revision and usually ends on the first page.
 */
export async function findRecordedDecision(
  store: EventStore,
  mainStreamId: string,
  messageRevision: number,
  messageId: string,
): Promise<RoutingDecision | undefined> {
  const eventId = routingEventIdFor(messageId);
  for (let from = messageRevision; ; from += PAGE) {
    const page = await store.readStream(mainStreamId, { fromRevision: from, maxCount: PAGE });
    const found = page.find((e) => e.metadata.eventId === eventId);
    if (found) return mainEvents.RoutingDecided.parse(found.data);
    if (page.length < PAGE) return undefined;
  }
}

/**
 * Records the decision, or finds the one recorded first. The recorded decision wins over a fresh
 * one: after a crash the facts may have changed (the task was stopped meanwhile), and acting on
 * anything but what the log says would make the log lie.
 */
export async function recordDecision(
  store: EventStore,
  mainStreamId: string,
  messageRevision: number,
  decision: RoutingDecision,
  metadata: WriteMetadata,
): Promise<{ decision: RoutingDecision; written: boolean }> {
  const eventId = routingEventIdFor(decision.messageId);
  // 'any' with a derived id is idempotent: a repeat of the same id answers written: false.
  const result = await store.append(
    mainStreamId,
    [{ eventId, type: 'RoutingDecided', data: decision, metadata }],
    'any',
  );
  if (result.written) return { decision, written: true };
  const recorded = await findRecordedDecision(store, mainStreamId, messageRevision, decision.messageId);
  return { decision: recorded ?? decision, written: false };
}
