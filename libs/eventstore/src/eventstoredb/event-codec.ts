import { type JSONEventData, type Position as ClientPosition, ErrorType } from '@eventstore/db-client';
import {
  eventRegistry,
  upcast,
  type EventEnvelope,
  type EventMetadata,
  type NewEvent,
  type WriteMetadata,
} from '@lomo/contracts';
import { formatPosition } from './esdb-position';
import { fromClientRevision } from './esdb-revision';
import { StoreFailureError } from './eventstoredb-errors';

/** What the adapter reads from a recorded event; the client's RecordedEvent has this shape. */
export interface RecordedLike {
  id: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  isJson: boolean;
  created: Date;
  position?: ClientPosition;
}

/**
 * The event's metadata as stored in EventStoreDB: the writer's metadata as is, the server's
 * conventional correlation keys (its $by_correlation_id projection and UI read them), and a
 * `lomo` section with the schema version of `data` and the id of the append call that wrote it.
 * The append id lets a caller tell its own fresh write from an earlier identical one, which the
 * server answers the same way (see the adapter's append). An event written by the operator import
 * also keeps the time it first occurred there (`occurredAt`): the server's own `created` cannot
 * be set, and read models rebuilt from the import must keep their times.
 */
type StoredMetadata = WriteMetadata & {
  $correlationId: string;
  $causationId?: string;
  lomo: { schemaVersion: number; appendId: string; occurredAt?: string };
};

export function encodeEvent(
  event: NewEvent,
  schemaVersion: number,
  appendId: string,
  /** Only for `appendImported`. */
  occurredAt?: string,
): JSONEventData {
  const metadata: StoredMetadata = {
    ...event.metadata,
    $correlationId: event.metadata.correlationId,
    ...(event.metadata.causationId === null ? {} : { $causationId: event.metadata.causationId }),
    lomo: { schemaVersion, appendId, ...(occurredAt === undefined ? {} : { occurredAt }) },
  };
  return {
    id: event.eventId,
    contentType: 'application/json',
    type: event.type,
    // Validated against the event's schema before encoding, so it is a JSON object.
    data: event.data as Record<string, unknown>,
    metadata,
  };
}

/** The append id stored with an event, or undefined when the event was not written by this adapter. */
export function appendIdOf(recorded: RecordedLike): string | undefined {
  const lomo = lomoSection(recorded.metadata);
  return typeof lomo?.appendId === 'string' ? lomo.appendId : undefined;
}

/** A parsed, upcast envelope; `streamId` is the port's id (the server name minus any namespace). */
export function decodeEvent(streamId: string, recorded: RecordedLike): EventEnvelope {
  const stored = recorded.metadata;
  const lomo = lomoSection(stored);
  const schemaVersion = lomo?.schemaVersion;
  if (
    !recorded.isJson ||
    !isRecord(recorded.data) ||
    !isRecord(stored) ||
    typeof schemaVersion !== 'number' ||
    !Number.isSafeInteger(schemaVersion)
  ) {
    throw notOurs(streamId, recorded, 'it was not written by this adapter');
  }
  if (recorded.position === undefined) {
    // Stream reads carry positions from EventStoreDB 22.6 on.
    throw notOurs(streamId, recorded, 'the server sent no position (EventStoreDB 22.6 or later is required)');
  }
  const { $correlationId: _c, $causationId: _k, lomo: _l, ...write } = stored;
  const metadata = {
    ...write,
    eventId: recorded.id,
    streamId,
    revision: fromClientRevision(recorded.revision),
    globalPosition: formatPosition(recorded.position),
    occurredAt: typeof lomo?.occurredAt === 'string' ? lomo.occurredAt : recorded.created.toISOString(),
  } as Omit<EventMetadata, 'schemaVersion'>;
  const type = recorded.type;
  const data = recorded.data;
  if (eventRegistry.get(type)?.version === schemaVersion) {
    return { type, data, metadata: { ...metadata, schemaVersion } };
  }
  return upcast({ type, schemaVersion, data, metadata });
}

function lomoSection(
  metadata: unknown,
): { schemaVersion?: unknown; appendId?: unknown; occurredAt?: unknown } | undefined {
  if (!isRecord(metadata)) return undefined;
  const lomo = metadata.lomo;
  return isRecord(lomo) ? lomo : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

function notOurs(streamId: string, recorded: RecordedLike, why: string): StoreFailureError {
  return new StoreFailureError(
    `Event ${recorded.id} at ${streamId}@${String(recorded.revision)} cannot be read: ${why}`,
    ErrorType.UNKNOWN,
  );
}
