import { eventRegistry, upcast, type EventEnvelope, type EventMetadata } from '@lomo/contracts';

/** Column list of every event read; the tuple below mirrors it. */
export const EVENT_COLUMNS =
  'position, stream_id, revision, event_id, type, schema_version, data, metadata, occurred_at';

export type EventRow = [
  position: number,
  streamId: string,
  revision: number,
  eventId: string,
  type: string,
  schemaVersion: number,
  data: string,
  metadata: string,
  occurredAt: string,
];

/**
 * Rows come from `.raw()` statements (arrays are cheaper than objects) and were validated when
 * written, so reading parses each JSON column once and never runs a schema. The parsed metadata
 * object is completed in place rather than copied: spreading it (here and again in `upcast`)
 * cost more than everything else on the read path together. Events already at their current
 * name and version skip `upcast`, which would return them unchanged anyway.
 */
export function rowToEnvelope(row: EventRow): EventEnvelope {
  const type = row[4];
  const schemaVersion = row[5];
  const data = JSON.parse(row[6]) as Record<string, unknown>;
  const metadata = JSON.parse(row[7]) as EventMetadata;
  metadata.eventId = row[3];
  metadata.streamId = row[1];
  metadata.revision = row[2];
  metadata.globalPosition = String(row[0]);
  metadata.occurredAt = row[8];
  if (eventRegistry.get(type)?.version === schemaVersion) {
    metadata.schemaVersion = schemaVersion;
    return { type, data, metadata };
  }
  return upcast({ type, schemaVersion, data, metadata });
}
