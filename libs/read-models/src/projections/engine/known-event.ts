import { eventRegistry, type EventDataMap, type EventEnvelope } from '@lomo/contracts';

export type KnownEventType = keyof EventDataMap;

/** A stored event whose `data` is typed by its `type`, so projections can switch on it. */
export type KnownEvent = { [T in KnownEventType]: EventEnvelope<T, EventDataMap[T]> }[KnownEventType];

export type KnownEventOf<T extends KnownEventType> = EventEnvelope<T, EventDataMap[T]>;

/**
 * Events come from the store, which validated and upcast them on the way in and out, so the
 * registry lookup is the only check left: it keeps types this code does not know out of evolve.
 */
export function asKnownEvent(event: EventEnvelope): KnownEvent | undefined {
  return eventRegistry.has(event.type) ? (event as KnownEvent) : undefined;
}
