import {
  InvalidEventError,
  UnknownEventTypeError,
  ValidationError,
  WrongStreamCategoryError,
  zodIssues,
} from './errors';
import { writeMetadataSchema, type EventEnvelope, type EventMetadata, type NewEvent } from './envelope';
import { uuid } from './ids';
import { eventRegistry } from './registry';
import { categoryOf } from './streams';

/**
 * Checks one event against its contract before it is written: known type, right stream
 * category, data and metadata valid. Throws a typed error; never rewrites the event.
 */
export function validateNewEvent(streamId: string, event: NewEvent): { version: number } {
  const definition = eventRegistry.get(event.type);
  if (!definition) throw new UnknownEventTypeError(event.type);
  const category = categoryOf(streamId);
  if (definition.category !== category) throw new WrongStreamCategoryError(event.type, streamId, definition.category);
  if (!uuid.safeParse(event.eventId).success) {
    throw new ValidationError(`eventId of ${event.type} is not a UUID`, [{ path: 'eventId', message: 'Invalid UUID' }]);
  }
  const meta = writeMetadataSchema.safeParse(event.metadata);
  if (!meta.success)
    throw new InvalidEventError(
      event.type,
      zodIssues(meta.error).map((i) => ({ ...i, path: `metadata.${i.path}` })),
    );
  const data = definition.schema.safeParse(event.data);
  if (!data.success) throw new InvalidEventError(event.type, zodIssues(data.error));
  return { version: definition.version };
}

/** A stored event as the store keeps it, before upcasting. */
export interface StoredEvent {
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: Omit<EventMetadata, 'schemaVersion'>;
}

/**
 * Upcasting happens on read: former type names are mapped to the current one and each
 * version step is applied in order. Pure; events already current pass through untouched.
 */
export function upcast(stored: StoredEvent): EventEnvelope {
  const definition = eventRegistry.resolve(stored.type);
  if (!definition) throw new UnknownEventTypeError(stored.type);
  let data = stored.data;
  for (let v = stored.schemaVersion; v < definition.version; v += 1) {
    const step = definition.upcasters[v];
    if (step) data = step(data);
  }
  return { type: definition.type, data, metadata: { ...stored.metadata, schemaVersion: definition.version } };
}
