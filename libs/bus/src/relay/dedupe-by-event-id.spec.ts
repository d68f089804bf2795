import type { DeliveryContext, ReceivedMessage } from '../event-bus.port';
import { dedupeByEventId, InMemoryProcessedEventIds } from './dedupe-by-event-id';

const message = (eventId?: string): ReceivedMessage => ({
  topic: 't',
  partition: 0,
  offset: 0,
  key: 'task-1',
  value: { type: 'X', data: {}, metadata: eventId ? { eventId } : {} },
  headers: {},
  timestamp: 0,
});
const context: DeliveryContext = { groupId: 'g', attempt: 1, signal: new AbortController().signal };

describe('dedupeByEventId', () => {
  it('handles each event id once', async () => {
    const seen: string[] = [];
    const handler = dedupeByEventId(
      async (m) => void seen.push(String((m.value.metadata as { eventId: string }).eventId)),
      new InMemoryProcessedEventIds(),
    );
    for (const id of ['a', 'b', 'a', 'c', 'b']) await handler(message(id), context);
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('records the id only after the handler succeeded, so a failed one runs again', async () => {
    let calls = 0;
    const handler = dedupeByEventId(async () => {
      calls += 1;
      if (calls === 1) throw new Error('first try fails');
    }, new InMemoryProcessedEventIds());
    await expect(handler(message('a'), context)).rejects.toThrow('first try fails');
    await handler(message('a'), context);
    await handler(message('a'), context);
    expect(calls).toBe(2);
  });

  it('prefers the eventId header and passes messages without any id through', async () => {
    let calls = 0;
    const handler = dedupeByEventId(async () => void (calls += 1), new InMemoryProcessedEventIds());
    const withHeader = { ...message(), headers: { eventId: 'h1' } };
    await handler(withHeader, context);
    await handler(withHeader, context);
    await handler(message(), context);
    await handler(message(), context);
    expect(calls).toBe(3);
  });

  it('forgets the oldest ids beyond its capacity', () => {
    const ids = new InMemoryProcessedEventIds(2);
    ids.add('a');
    ids.add('b');
    ids.add('c');
    expect([ids.has('a'), ids.has('b'), ids.has('c'), ids.size]).toEqual([false, true, true, 2]);
  });
});
