import { randomUUID } from 'node:crypto';
import type { Caller } from '@lomo/auth';
import { EventRelay, InProcessEventBus, SqliteRelayLeaseStore, type ConsumerHandle } from '@lomo/bus';
import { InMemoryEventStore, waitFor } from '@lomo/bus/testing';
import type { Clock, NewEvent } from '@lomo/contracts';
import { OperatorRoleRequiredError } from '../../errors';
import { DEFAULT_RELAY_ID, relayStatus, topicLag } from './relay-status';

const operator: Caller = { tokenId: 't-op', tokenName: 'ops', workspaceId: 'ops', userId: 'sam', kind: 'operator' };
const person: Caller = { ...operator, tokenId: 't-p', kind: 'person' };
const TOPIC = 'lomo.events.task';

const changed = (n: number): NewEvent => ({
  eventId: randomUUID(),
  type: 'ChecklistItemChanged',
  data: { itemId: `item-${n}`, status: 'done' },
  metadata: { correlationId: `c-${n}`, causationId: null, workspaceId: 'ws1', actor: { kind: 'agent' } },
});

describe('relayStatus', () => {
  let now: number;
  const clock: Clock = { now: () => new Date(now) };
  let events: InMemoryEventStore;
  let bus: InProcessEventBus;
  let leases: SqliteRelayLeaseStore;
  let relay: EventRelay;
  let consumer: ConsumerHandle | undefined;
  let handled: number;

  const append = async (count: number) => {
    for (let n = 0; n < count; n += 1) await events.append(`task-${randomUUID()}`, [changed(n)], 'no_stream');
  };
  const sources = () => ({ events, bus, lease: leases, clock });

  beforeEach(async () => {
    now = Date.parse('2026-12-06T10:00:00Z');
    handled = 0;
    events = new InMemoryEventStore();
    bus = InProcessEventBus.open({ filename: ':memory:', pollIntervalMs: 10, heartbeatIntervalMs: 50 });
    leases = SqliteRelayLeaseStore.open({ filename: ':memory:' });
    relay = new EventRelay({ store: events, bus, relayId: DEFAULT_RELAY_ID, partitions: 2, idleIntervalMs: 5 });
    await relay.ensureTopics(['task']);
    relay.start();
    consumer = await bus.subscribe({
      groupId: 'projector',
      topics: [TOPIC],
      fromBeginning: true,
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
      handler: async () => {
        handled += 1;
      },
    });
  });

  afterEach(async () => {
    await relay.stop();
    await consumer?.stop();
    await bus.close();
    leases.close();
  });

  it('shows a caught-up relay and group, then the events and messages a stopped group has not handled', async () => {
    await append(5);
    await relay.drain();
    await waitFor(() => handled === 5, 'the group handled the first five', 5_000);
    const projectorCommitted = async () =>
      (await bus.committedOffsets('projector', TOPIC)).reduce((n, o) => n + (o.offset ?? 0), 0);
    await waitFor(async () => (await projectorCommitted()) === 5, 'the group committed them', 5_000);

    const caughtUp = await relayStatus(sources(), operator, { groups: ['projector', 'router'] });
    expect(caughtUp).toMatchObject({ relayId: DEFAULT_RELAY_ID, topicPrefix: 'lomo.events.', lagEvents: 0 });
    expect(caughtUp.checkpoint).toBe(caughtUp.head);
    expect(caughtUp.groups.map((g) => [g.groupId, g.lag, g.topics.map((t) => t.topic)])).toEqual([
      ['projector', 0, [TOPIC]],
      // Never consumed anything here: no topics, nothing to be behind on.
      ['router', 0, []],
    ]);

    // The group stops (stuck, say) and three more events are relayed: three messages behind.
    await consumer?.stop();
    consumer = undefined;
    await append(3);
    await relay.drain();
    const behind = await relayStatus(sources(), operator, { groups: ['projector'] });
    const [projector] = behind.groups;
    expect(projector.lag).toBe(3);
    expect(projector.topics[0].partitions.reduce((n, p) => n + p.end, 0)).toBe(8);

    // The relay stops too: the store runs ahead of its checkpoint.
    await relay.stop();
    await append(4);
    const lagging = await relayStatus(sources(), operator, { groups: [] });
    expect([lagging.lagEvents, lagging.lagCapped]).toEqual([4, false]);
    expect(lagging.checkpoint).not.toBe(lagging.head);
    const capped = await relayStatus(sources(), operator, { groups: [], lagLimit: 2 });
    expect([capped.lagEvents, capped.lagCapped]).toEqual([2, true]);
  });

  it('names the lease holder and says whether the lease is still live by the clock', async () => {
    expect((await relayStatus(sources(), operator, { groups: [] })).lease).toBeNull();
    await leases.tryAcquire(DEFAULT_RELAY_ID, 'relay-a', clock.now(), 1_000);
    const held = await relayStatus(sources(), operator, { groups: [] });
    expect(held.lease).toEqual({
      holder: 'relay-a',
      epoch: 1,
      expiresAt: new Date(now + 1_000).toISOString(),
      live: true,
    });
    now += 5_000;
    expect((await relayStatus(sources(), operator, { groups: [] })).lease).toMatchObject({
      holder: 'relay-a',
      live: false,
    });
  });

  it('is for operators only', async () => {
    await expect(relayStatus(sources(), person)).rejects.toBeInstanceOf(OperatorRoleRequiredError);
  });
});

describe('topicLag', () => {
  it('counts from 0 on a partition the group never committed on', () => {
    expect(
      topicLag(
        't',
        [
          { partition: 0, offset: 4 },
          { partition: 1, offset: null },
        ],
        [
          { partition: 0, offset: 6 },
          { partition: 1, offset: 3 },
        ],
      ),
    ).toEqual({
      topic: 't',
      lag: 5,
      partitions: [
        { partition: 0, committed: 4, end: 6, lag: 2 },
        { partition: 1, committed: null, end: 3, lag: 3 },
      ],
    });
  });
});
