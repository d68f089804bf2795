import type { EventEnvelope } from '@lomo/contracts';
import type { OutgoingMessage } from '../event-bus.port';
import { RelayHeaders, relayTopicFor, toRelayedMessage } from './relayed-message';
import type { RelayBatch } from './relay-publisher.port';

/**
 * One batch per topic, each in store order (so each stream keeps its order). With an epoch, every
 * message says which relay term published it, which lets a drill tell a re-published batch of a
 * handover from a duplicate inside one term.
 */
export function batchesByTopic(
  events: readonly EventEnvelope[],
  topicPrefix: string,
  epoch: number | undefined,
): RelayBatch[] {
  const byTopic = new Map<string, OutgoingMessage[]>();
  for (const event of events) {
    const topic = relayTopicFor(event.metadata.streamId, topicPrefix);
    let batch = byTopic.get(topic);
    if (!batch) byTopic.set(topic, (batch = []));
    const message = toRelayedMessage(event);
    batch.push(
      epoch === undefined
        ? message
        : { ...message, headers: { ...message.headers, [RelayHeaders.relayEpoch]: String(epoch) } },
    );
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
