import {
  eventRegistry,
  isLomoError,
  upcast,
  validateNewEvent,
  type EventMetadata,
  type WriteMetadata,
} from '@lomo/contracts';
import type { ImportedEvent } from '@lomo/eventstore';
import { exportedEventLine } from './export-format';

/** A line that is not an event this code can store, and why (the import's refusal says it). */
export type LineVerdict =
  | { ok: true; streamId: string; revision: number; event: ImportedEvent }
  | { ok: false; check: 'event_line' | 'event_contract'; reason: string; details: Record<string, unknown> };

/**
 * Parses one events.ndjson line into the event to append, checked as the store's own append checks
 * it (`validateNewEvent`: known type, right stream category, data and metadata against the
 * contract). A line exported by an older version of the code is upcast first, as a read would.
 */
export function parseExportedLine(text: string): LineVerdict {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, check: 'event_line', reason: 'not JSON', details: { error: String(error) } };
  }
  const line = exportedEventLine.safeParse(json);
  if (!line.success)
    return {
      ok: false,
      check: 'event_line',
      reason: 'not a stored event',
      details: { issues: line.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).slice(0, 10) },
    };
  const { type, data, metadata } = line.data;
  const definition = eventRegistry.resolve(type);
  if (definition === undefined)
    return { ok: false, check: 'event_contract', reason: `unknown event type "${type}"`, details: { type } };
  if (metadata.schemaVersion > definition.version)
    return {
      ok: false,
      check: 'event_contract',
      reason: `${type} is at schema version ${metadata.schemaVersion}, newer than this code's ${definition.version}`,
      details: { type, schemaVersion: metadata.schemaVersion },
    };
  const current =
    metadata.schemaVersion === definition.version && definition.type === type
      ? { type, data }
      : upcast({
          type,
          schemaVersion: metadata.schemaVersion,
          data: data as Record<string, unknown>,
          metadata: metadata as unknown as Omit<EventMetadata, 'schemaVersion'>,
        });
  const write: WriteMetadata = {
    correlationId: metadata.correlationId as string,
    causationId: metadata.causationId as string | null,
    workspaceId: metadata.workspaceId,
    actor: metadata.actor as WriteMetadata['actor'],
    ...(metadata.generation === undefined ? {} : { generation: metadata.generation as number }),
  };
  const event: ImportedEvent = {
    eventId: metadata.eventId,
    type: current.type,
    data: current.data,
    metadata: write,
    occurredAt: metadata.occurredAt,
  };
  try {
    validateNewEvent(metadata.streamId, event);
  } catch (error) {
    if (!isLomoError(error)) throw error;
    return {
      ok: false,
      check: 'event_contract',
      reason: error.message,
      details: { type, code: error.code, ...error.details },
    };
  }
  return { ok: true, streamId: metadata.streamId, revision: metadata.revision, event };
}
