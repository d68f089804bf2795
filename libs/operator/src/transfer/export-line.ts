import { createHash } from 'node:crypto';
import type { EventEnvelope } from '@lomo/contracts';

/**
 * One events.ndjson line for a stored event: its type, data and metadata with a fixed key order
 * (the same event exports to the same bytes whatever store it came from), without the global
 * position, which only the exporting store can interpret (the importing one assigns its own).
 */
export function exportLine(event: EventEnvelope): string {
  const m = event.metadata;
  const metadata = {
    eventId: m.eventId,
    streamId: m.streamId,
    revision: m.revision,
    occurredAt: m.occurredAt,
    schemaVersion: m.schemaVersion,
    correlationId: m.correlationId,
    causationId: m.causationId,
    workspaceId: m.workspaceId,
    actor: m.actor,
    ...(m.generation === undefined ? {} : { generation: m.generation }),
  };
  return `${JSON.stringify({ type: event.type, data: event.data, metadata })}\n`;
}

export const sha256Of = (content: string | Buffer): string => createHash('sha256').update(content).digest('hex');
