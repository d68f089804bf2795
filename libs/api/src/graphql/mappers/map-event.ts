import type { EventEnvelope } from '@lomo/contracts';
import type { StoredEvent } from '../types/event.types';

export function mapEvent(e: EventEnvelope): StoredEvent {
  const m = e.metadata;
  return {
    eventId: m.eventId,
    streamId: m.streamId,
    revision: m.revision,
    position: m.globalPosition,
    type: e.type,
    schemaVersion: m.schemaVersion,
    occurredAt: m.occurredAt,
    correlationId: m.correlationId,
    causationId: m.causationId,
    actorJson: JSON.stringify(m.actor),
    generation: m.generation ?? null,
    dataJson: JSON.stringify(e.data),
  };
}
