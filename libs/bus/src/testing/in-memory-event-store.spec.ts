import { randomUUID } from 'node:crypto';
import type { EventEnvelope, NewEvent } from '@lomo/contracts';
import { InMemoryEventStore } from './in-memory-event-store';
import { waitFor } from './wait-for';

const event = (n: number): NewEvent => ({
  eventId: randomUUID(),
  type: 'Probe',
  data: { n },
  metadata: { correlationId: 'c', causationId: null, workspaceId: 'ws1', actor: { kind: 'agent' } },
});

describe('InMemoryEventStore (test fake)', () => {
  it('checks expected revisions and numbers revisions and positions', async () => {
    const store = new InMemoryEventStore();
    await store.append('task-a', [event(0), event(1)], 'no_stream');
    await expect(store.append('task-a', [event(2)], 0)).rejects.toMatchObject({ code: 'CONCURRENCY_CONFLICT' });
    await store.append('task-b', [event(2)], 'any');
    await store.append('task-a', [event(3)], 1);
    expect((await store.readStream('task-a')).map((e) => e.metadata.revision)).toEqual([0, 1, 2]);
    expect((await store.readAll({ fromPosition: '2', maxCount: 1 })).map((e) => e.metadata.streamId)).toEqual([
      'task-b',
    ]);
    expect(await store.headPosition()).toBe('4');
    expect(await store.streamRevision('task-c')).toBe('no_stream');
  });

  it('resumes a durable subscription from its checkpoint', async () => {
    const store = new InMemoryEventStore();
    await store.append('task-a', [event(0), event(1)], 'any');
    const seen: EventEnvelope[] = [];
    const first = store.subscribeToAll({ subscriberId: 's' }, (e) => void seen.push(e));
    await first.caughtUp;
    await first.stop();
    await store.append('task-a', [event(2)], 'any');
    const second = store.subscribeToAll({ subscriberId: 's' }, (e) => void seen.push(e));
    await waitFor(() => seen.length === 3, 'the new event', 2_000);
    await second.stop();
    expect(seen.map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2]);
    expect(await store.getCheckpoint('s')).toBe('3');
  });
});
