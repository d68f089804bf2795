import type { EventEnvelope } from '@lomo/contracts';
import type { ReceivedMessage } from '../event-bus.port';
import { eventIdOf, relayedEventOf, relayTopicFor, toRelayedMessage } from './relayed-message';

const envelope: EventEnvelope = {
  type: 'TaskCreated',
  data: { goal: 'fox' },
  metadata: {
    eventId: '7d4f2c1a-1b2c-4d5e-8f90-0123456789ab',
    streamId: 'task-t1',
    revision: 4,
    globalPosition: '17',
    occurredAt: '2030-01-01T00:00:00.000Z',
    schemaVersion: 1,
    correlationId: 'corr',
    causationId: 'cause',
    workspaceId: 'ws1',
    actor: { kind: 'agent' },
  },
};

const received = (value: Record<string, unknown>, headers: Record<string, string> = {}): ReceivedMessage => ({
  topic: 't',
  partition: 0,
  offset: 0,
  key: 'task-t1',
  value,
  headers,
  timestamp: 0,
});

describe('relayed messages', () => {
  it('name one topic per stream category and refuse a malformed stream id', () => {
    expect(relayTopicFor('turn-abc')).toBe('lomo.events.turn');
    expect(relayTopicFor('main-ws1.u1', 'x.')).toBe('x.main');
    expect(() => relayTopicFor('no category')).toThrow(expect.objectContaining({ code: 'INVALID_STREAM_ID' }));
  });

  it('carry the envelope under the stream id key, with the trace headers', () => {
    const message = toRelayedMessage(envelope);
    expect(message).toEqual({
      key: 'task-t1',
      value: envelope,
      headers: {
        eventId: envelope.metadata.eventId,
        type: 'TaskCreated',
        workspaceId: 'ws1',
        correlationId: 'corr',
        causationId: 'cause',
        streamId: 'task-t1',
        revision: '4',
      },
    });
    expect(relayedEventOf(received(JSON.parse(JSON.stringify(message.value)) as Record<string, unknown>))).toEqual(
      envelope,
    );
  });

  it('refuse a message that is not a relayed event, and find the event id in header or body', () => {
    expect(() => relayedEventOf(received({ hello: 'world' }))).toThrow(
      expect.objectContaining({ code: 'BUS_INVALID_MESSAGE' }),
    );
    expect(eventIdOf(received({}, { eventId: 'from-header' }))).toBe('from-header');
    expect(eventIdOf(received({ metadata: { eventId: 'from-body' } }))).toBe('from-body');
    expect(eventIdOf(received({}))).toBeUndefined();
  });
});
