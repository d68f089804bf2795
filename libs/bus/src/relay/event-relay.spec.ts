import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@lomo/contracts';
import { BusUnavailableError } from '../errors';
import type { EventBus, OutgoingMessage, ReceivedMessage } from '../event-bus.port';
import { InProcessEventBus } from '../in-process/in-process-event-bus';
import { InMemoryEventStore } from '../testing/in-memory-event-store';
import { waitFor } from '../testing/wait-for';
import { EventRelay } from './event-relay';

const probe = (n: number): NewEvent => ({
  eventId: randomUUID(),
  type: 'ChecklistItemChanged',
  data: { itemId: `item-${n}`, status: 'done' },
  metadata: { correlationId: `c-${n}`, causationId: null, workspaceId: 'ws1', actor: { kind: 'agent' } },
});

/** Passes calls to a real bus, after a hook that may delay or refuse a publish. */
function interceptPublish(
  bus: EventBus,
  hook: (topic: string, messages: readonly OutgoingMessage[]) => Promise<void>,
): EventBus {
  return {
    ensureTopics: (t) => bus.ensureTopics(t),
    publish: async (topic, messages) => {
      await hook(topic, messages);
      await bus.publish(topic, messages);
    },
    subscribe: (o) => bus.subscribe(o),
    committedOffsets: (g, t) => bus.committedOffsets(g, t),
    endOffsets: (t) => bus.endOffsets(t),
    readDeadLetters: (g) => bus.readDeadLetters(g),
    close: () => bus.close(),
  };
}

describe('EventRelay', () => {
  let store: InMemoryEventStore;
  let bus: InProcessEventBus;
  const relays: EventRelay[] = [];
  const relay = (options: Partial<ConstructorParameters<typeof EventRelay>[0]> = {}) => {
    const r = new EventRelay({
      store,
      bus,
      idleIntervalMs: 5,
      backoff: { initialDelayMs: 5, maxDelayMs: 20 },
      ...options,
    });
    relays.push(r);
    return r;
  };
  const published = async (topic: string) => {
    const log: ReceivedMessage[] = [];
    const handle = await bus.subscribe({
      groupId: `reader-${randomUUID()}`,
      topics: [topic],
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
      fromBeginning: true,
      handler: async (m) => void log.push(m),
    });
    return { log, stop: () => handle.stop() };
  };

  beforeEach(() => {
    store = new InMemoryEventStore();
    bus = InProcessEventBus.open({ filename: ':memory:' });
  });
  afterEach(async () => {
    for (const r of relays.splice(0)) await r.stop();
    await bus.close();
  });

  it('publishes in batches of the configured size and checkpoints after each', async () => {
    for (let i = 0; i < 10; i += 1) await store.append(`task-t${i % 3}`, [probe(i)], 'any');
    const batchSizes: number[] = [];
    const r = relay({ batchSize: 4, bus: interceptPublish(bus, async (_t, m) => void batchSizes.push(m.length)) });
    r.start();
    await r.drain();
    expect(batchSizes).toEqual([4, 4, 2]);
    expect(r.stats).toMatchObject({ batches: 3, events: 10, failures: 0 });
    expect(await store.getCheckpoint('bus-relay')).toBe(await store.headPosition());
  });

  it('keeps each stream in order under its stream id key', async () => {
    for (let i = 0; i < 12; i += 1) await store.append(`task-t${i % 4}`, [probe(i)], 'any');
    const r = relay({ batchSize: 5 });
    await r.ensureTopics(['task']);
    const reader = await published('lomo.events.task');
    r.start();
    await r.drain();
    await waitFor(() => reader.log.length === 12, 'all events on the bus', 5_000);
    for (const key of ['task-t0', 'task-t1', 'task-t2', 'task-t3']) {
      const revisions = reader.log.filter((m) => m.key === key).map((m) => Number(m.headers.revision));
      expect([key, revisions]).toEqual([key, [0, 1, 2]]);
    }
    await reader.stop();
  });

  it('never moves its checkpoint past a batch the bus has not accepted, and retries it', async () => {
    for (let i = 0; i < 3; i += 1) await store.append('task-t1', [probe(i)], 'any');
    let refusals = 2;
    const checkpointsSeen: Array<string | undefined> = [];
    const r = relay({
      bus: interceptPublish(bus, async () => {
        checkpointsSeen.push(await store.getCheckpoint('bus-relay'));
        if (refusals > 0) {
          refusals -= 1;
          throw new BusUnavailableError('broker away');
        }
      }),
    });
    r.start();
    await r.drain();
    expect(checkpointsSeen).toEqual([undefined, undefined, undefined]);
    expect(r.stats).toMatchObject({ failures: 2, batches: 1, events: 3 });
    expect(await store.getCheckpoint('bus-relay')).toBe('3');
  });

  it('on stop finishes the batch in flight: published, then checkpointed', async () => {
    for (let i = 0; i < 4; i += 1) await store.append('task-t1', [probe(i)], 'any');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = false;
    const r = relay({
      bus: interceptPublish(bus, async () => {
        entered = true;
        await gate;
      }),
    });
    r.start();
    await waitFor(() => entered, 'the publish to start', 5_000);
    const stopping = r.stop();
    expect(await store.getCheckpoint('bus-relay')).toBeUndefined();
    release();
    await stopping;
    expect(await store.getCheckpoint('bus-relay')).toBe('4');
    expect(r.stats.events).toBe(4);
  });

  it('resumes from its checkpoint after a restart without republishing', async () => {
    await store.append('task-t1', [probe(0), probe(1)], 'any');
    const first = relay({ batchSize: 1 });
    first.start();
    await first.drain();
    await first.stop();
    await store.append('turn-u1', [probe(2)], 'any');
    const topics: string[] = [];
    const second = relay({ bus: interceptPublish(bus, async (topic, m) => void topics.push(...m.map(() => topic))) });
    second.start();
    await second.drain();
    expect(topics).toEqual(['lomo.events.turn']);
  });

  it('drain and stop report a stopped relay as a typed error', async () => {
    const r = relay();
    r.start();
    await r.stop();
    await expect(r.drain()).rejects.toMatchObject({ code: 'BUS_RELAY_STOPPED' });
  });
});
