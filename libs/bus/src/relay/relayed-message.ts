import { categoryOf, type EventEnvelope } from '@lomo/contracts';
import { InvalidMessageError } from '../errors';
import type { OutgoingMessage, ReceivedMessage } from '../event-bus.port';

export const DEFAULT_RELAY_TOPIC_PREFIX = 'lomo.events.';

/** Headers every relayed message carries, so consumers can route and dedupe without parsing the value. */
export const RelayHeaders = {
  eventId: 'eventId',
  type: 'type',
  workspaceId: 'workspaceId',
  correlationId: 'correlationId',
  causationId: 'causationId',
  streamId: 'streamId',
  revision: 'revision',
  /** The lease epoch of the relay instance that published it (leased relays only). */
  relayEpoch: 'relayEpoch',
} as const;

/** One topic per stream category, e.g. `lomo.events.task`. */
export function relayTopicFor(streamId: string, prefix = DEFAULT_RELAY_TOPIC_PREFIX): string {
  return `${prefix}${categoryOf(streamId)}`;
}

/** Keyed by stream id, so a stream's events stay in order on one partition. */
export function toRelayedMessage(event: EventEnvelope): OutgoingMessage {
  const m = event.metadata;
  const headers: Record<string, string> = {
    [RelayHeaders.eventId]: m.eventId,
    [RelayHeaders.type]: event.type,
    [RelayHeaders.workspaceId]: m.workspaceId,
    [RelayHeaders.correlationId]: m.correlationId,
    [RelayHeaders.streamId]: m.streamId,
    [RelayHeaders.revision]: String(m.revision),
  };
  if (m.causationId !== null) headers[RelayHeaders.causationId] = m.causationId;
  return { key: m.streamId, value: { type: event.type, data: event.data, metadata: m }, headers };
}

/** The envelope a relayed message carries. Throws InvalidMessageError for anything else. */
export function relayedEventOf(message: ReceivedMessage): EventEnvelope {
  const { type, metadata } = message.value;
  const meta = metadata as Record<string, unknown> | undefined;
  if (typeof type !== 'string' || typeof meta !== 'object' || meta === null || typeof meta.eventId !== 'string') {
    throw new InvalidMessageError('Not a relayed event', [
      { path: 'value', message: 'expected {type, data, metadata: {eventId, ...}}' },
    ]);
  }
  return message.value as unknown as EventEnvelope;
}

/** The event id of a relayed message (header first, then the envelope), or undefined. */
export function eventIdOf(message: ReceivedMessage): string | undefined {
  const header = message.headers[RelayHeaders.eventId];
  if (header) return header;
  const meta = message.value.metadata as Record<string, unknown> | undefined;
  return typeof meta?.eventId === 'string' ? meta.eventId : undefined;
}
