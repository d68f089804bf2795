import { randomUUID } from 'node:crypto';
import type { Clock, NewEvent } from '@lomo/contracts';
import { BusUnavailableError } from '../errors';
import { InProcessEventBus } from '../in-process/in-process-event-bus';
import { InMemoryEventStore } from '../testing/in-memory-event-store';
import { waitFor } from '../testing/wait-for';
import { EventRelay } from './event-relay';
import type { RelayLeaseStore } from './relay-lease.port';
import type { RelayBatch, RelayPublisher } from './relay-publisher.port';
import { SqliteRelayLeaseStore } from './sqlite-relay-lease-store';

const TTL = 1_000;
const probe = (n: number): NewEvent => ({
  eventId: randomUUID(),
  type: 'ChecklistItemChanged',
  data: { itemId: `item-${n}`, status: 'done' },
  metadata: { correlationId: `c-${n}`, causationId: null, workspaceId: 'ws1', actor: { kind: 'agent' } },
});

class Recorder implements RelayPublisher {
  readonly rounds: Array<{ epoch: number; count: number }> = [];
  async activate(): Promise<void> {}
  async publish(batches: readonly RelayBatch[], epoch: number): Promise<void> {
    this.rounds.push({ epoch, count: batches.reduce((n, b) => n + b.messages.length, 0) });
  }
  async close(): Promise<void> {}
}

describe('EventRelay with a lease', () => {
  let now: number;
  const clock: Clock = { now: () => new Date(now) };
  let leases: SqliteRelayLeaseStore;
  let store: InMemoryEventStore;
  let bus: InProcessEventBus;
  let publisher: Recorder;
  let unavailable: boolean;
  let relay: EventRelay;

  beforeEach(async () => {
    now = 0;
    unavailable = false;
    leases = SqliteRelayLeaseStore.open({ filename: ':memory:' });
    store = new InMemoryEventStore();
    bus = InProcessEventBus.open({ filename: ':memory:' });
    publisher = new Recorder();
    const flaky = <T>(call: () => Promise<T>) =>
      unavailable ? Promise.reject(new BusUnavailableError('lease store down')) : call();
    const leaseStore: RelayLeaseStore = {
      tryAcquire: (...a) => flaky(() => leases.tryAcquire(...a)),
      renew: (...a) => flaky(() => leases.renew(...a)),
      release: (...a) => flaky(() => leases.release(...a)),
      current: (...a) => flaky(() => leases.current(...a)),
    };
    relay = new EventRelay({
      store,
      bus,
      relayId: 'r',
      idleIntervalMs: 5,
      backoff: { initialDelayMs: 5, maxDelayMs: 10 },
      publisher,
      lease: { store: leaseStore, holder: 'me', ttlMs: TTL, renewIntervalMs: 5, acquireIntervalMs: 5, clock },
    });
    relay.start();
    await waitFor(() => relay.state === 'active', 'active', 2_000);
  });
  afterEach(async () => {
    unavailable = false;
    await relay.stop();
    await bus.close();
    leases.close();
  });

  it('turns fenced once another instance took the lease, even with nothing to publish', async () => {
    now += TTL;
    expect(await leases.tryAcquire('r', 'other', clock.now(), TTL)).toMatchObject({ epoch: 2 });
    await waitFor(() => relay.state === 'fenced', 'fenced', 2_000);
    await store.append('task-t1', [probe(1)], 'any');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(publisher.rounds).toEqual([]);
    expect(await leases.current('r')).toMatchObject({ holder: 'other', epoch: 2 });
  });

  it('stops publishing once renewals failed until the lease expired, and resumes under the same epoch when nobody took it', async () => {
    unavailable = true;
    now += TTL;
    await store.append('task-t1', [probe(1)], 'any');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(publisher.rounds).toEqual([]);
    unavailable = false;
    await relay.drain();
    expect(publisher.rounds).toEqual([{ epoch: 1, count: 1 }]);
    expect(relay.state).toBe('active');
  });
});
