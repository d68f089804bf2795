import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Clock, NewEvent } from '@lomo/contracts';
import {
  BusUnavailableError,
  dedupeByEventId,
  EventRelay,
  eventIdOf,
  InMemoryProcessedEventIds,
  InProcessEventBus,
  RelayFencedError,
  RelayHeaders,
  SqliteBusLog,
  SqliteFencedBusPublisher,
  SqliteRelayLeaseStore,
  type ReceivedMessage,
  type RelayBatch,
  type RelayLeaseStore,
  type RelayPublisher,
  type RelayState,
} from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { SqliteEventStore } from '@lomo/eventstore';

const RELAY_ID = 'lease-relay';
const TOPIC = 'lomo.events.task';
const TTL_MS = 10_000;
const STREAMS = 6;

/** Lease time is this clock's; renewals and retries still run on real (short) timers. */
class FakeClock implements Clock {
  private ms = 1_000_000;
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * Everything one relay instance does with the outside world goes through here, so a test can
 * freeze the instance as SIGSTOP would (calls wait until `resume`) or cut it off as if it had died.
 */
class Instance implements RelayPublisher {
  readonly states: RelayState[] = [];
  /** Rounds the bus log accepted from this instance, with the epoch they carried. */
  readonly written: Array<{ epoch: number; eventIds: string[] }> = [];
  readonly refused: unknown[] = [];
  readonly relay: EventRelay;
  private frozen: Promise<void> | undefined;
  private thaw: (() => void) | undefined;
  private freezeAt: 'before-write' | 'after-write' | undefined;
  private onFrozen: ((round: string[]) => void) | undefined;
  private dead = false;

  constructor(
    readonly name: string,
    private readonly inner: RelayPublisher,
    private readonly leases: SqliteRelayLeaseStore,
    store: SqliteEventStore,
    bus: InProcessEventBus,
    clock: Clock,
  ) {
    const guardedLeases: RelayLeaseStore = {
      tryAcquire: (...a) => this.gate().then(() => leases.tryAcquire(...a)),
      renew: (...a) => this.gate().then(() => leases.renew(...a)),
      release: (...a) => this.gate().then(() => leases.release(...a)),
      current: (...a) => this.gate().then(() => leases.current(...a)),
    };
    this.relay = new EventRelay({
      store,
      bus,
      relayId: RELAY_ID,
      partitions: 4,
      batchSize: 10,
      idleIntervalMs: 5,
      backoff: { initialDelayMs: 5, maxDelayMs: 20 },
      publisher: this,
      lease: { store: guardedLeases, holder: name, ttlMs: TTL_MS, renewIntervalMs: 10, acquireIntervalMs: 10, clock },
      onStateChange: (state) => this.states.push(state),
    });
  }

  /** Resolves with the round in hand once the instance is frozen at that point. */
  freezeNextRound(at: 'before-write' | 'after-write'): Promise<string[]> {
    this.freezeAt = at;
    return new Promise((resolve) => (this.onFrozen = resolve));
  }

  resume(): void {
    this.frozen = undefined;
    this.thaw?.();
  }

  /** From now on every call fails, as for a process that is gone. */
  kill(): void {
    this.dead = true;
  }

  async activate(epoch: number): Promise<void> {
    await this.gate();
    await this.inner.activate(epoch);
  }

  async publish(batches: readonly RelayBatch[], epoch: number, signal?: AbortSignal): Promise<void> {
    const eventIds = batches.flatMap((b) => b.messages.map((m) => m.headers?.[RelayHeaders.eventId] ?? ''));
    if (this.freezeAt === 'before-write') this.freeze(eventIds);
    await this.gate();
    try {
      await this.inner.publish(batches, epoch, signal);
    } catch (error) {
      this.refused.push(error);
      throw error;
    }
    this.written.push({ epoch, eventIds });
    if (this.freezeAt === 'after-write') this.freeze(eventIds);
    await this.gate();
  }

  async close(): Promise<void> {
    await this.inner.close();
    this.leases.close();
  }

  private freeze(round: string[]): void {
    this.freezeAt = undefined;
    this.frozen = new Promise((resolve) => (this.thaw = resolve));
    this.onFrozen?.(round);
  }

  private async gate(): Promise<void> {
    await this.frozen;
    if (this.dead) throw new BusUnavailableError(`${this.name} is gone`);
  }
}

const itemChanged = (n: number): NewEvent => ({
  eventId: randomUUID(),
  type: 'ChecklistItemChanged',
  data: { itemId: `item-${n}`, status: 'done' },
  metadata: { correlationId: `lease-${n}`, causationId: null, workspaceId: 'ws1', actor: { kind: 'agent' } },
});

describe('relay lease, in-process bus (epoch fenced in the bus-log transaction)', () => {
  let dir: string;
  let busFile: string;
  let store: SqliteEventStore;
  let bus: InProcessEventBus;
  let clock: FakeClock;
  const instances: Instance[] = [];
  let appended = 0;

  const append = async (count: number) => {
    for (let i = 0; i < count; i += 1, appended += 1)
      await store.append(`task-lease${appended % STREAMS}`, [itemChanged(appended)], 'any');
  };
  const instance = (name: string) => {
    const created = new Instance(
      name,
      SqliteFencedBusPublisher.open({ filename: busFile, relayId: RELAY_ID }),
      SqliteRelayLeaseStore.open({ filename: busFile }),
      store,
      bus,
      clock,
    );
    instances.push(created);
    return created;
  };
  /** Every message on the topic, and what a consumer deduplicating by event id handled, in order. */
  const readTopic = async (expectedUnique: number) => {
    const raw: ReceivedMessage[] = [];
    const unique: ReceivedMessage[] = [];
    const common = {
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 5 },
      fromBeginning: true,
      topics: [TOPIC],
    };
    const handles = [
      await bus.subscribe({ ...common, groupId: `raw-${randomUUID()}`, handler: async (m) => void raw.push(m) }),
      await bus.subscribe({
        ...common,
        groupId: `deduped-${randomUUID()}`,
        handler: dedupeByEventId(async (m) => void unique.push(m), new InMemoryProcessedEventIds()),
      }),
    ];
    await waitFor(() => unique.length === expectedUnique, 'the deduplicating consumer through the topic', 10_000);
    // The raw reader may be behind; the bus log holds a fixed number of messages by now.
    await waitFor(() => raw.length === onBus(), 'the raw reader through the topic', 10_000);
    for (const h of handles) await h.stop();
    return { raw, unique };
  };
  const onBus = () => {
    const log = SqliteBusLog.open({ filename: busFile });
    try {
      return [0, 1, 2, 3].reduce((sum, p) => sum + log.endOffset(TOPIC, p), 0);
    } finally {
      log.close();
    }
  };

  /** All stored events arrived once each after dedupe, every stream in revision order. */
  const expectEveryEventOnceInOrder = async (unique: ReceivedMessage[]) => {
    const stored = await store.readAll();
    expect(unique.map((m) => eventIdOf(m)).sort()).toEqual(stored.map((e) => e.metadata.eventId).sort());
    for (let s = 0; s < STREAMS; s += 1) {
      const revisions = unique
        .filter((m) => m.headers[RelayHeaders.streamId] === `task-lease${s}`)
        .map((m) => Number(m.headers[RelayHeaders.revision]));
      expect(revisions).toEqual(revisions.map((_, i) => i));
    }
  };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-relay-lease-'));
    busFile = path.join(dir, 'bus.sqlite');
    store = new SqliteEventStore({ filename: path.join(dir, 'events.sqlite') });
    bus = InProcessEventBus.open({ filename: busFile, pollIntervalMs: 20 });
    await bus.ensureTopics([{ name: TOPIC, partitions: 4 }]);
    clock = new FakeClock();
    appended = 0;
  });
  afterEach(async () => {
    for (const i of instances.splice(0)) {
      i.resume();
      await i.relay.stop();
      await i.close();
    }
    await bus.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs one active instance; a stopped one hands over at once, a dead one after its TTL, each resuming from the checkpoint', async () => {
    await append(40);
    const a = instance('a');
    const b = instance('b');
    a.relay.start();
    await waitFor(() => a.relay.state === 'active', 'a active', 5_000);
    b.relay.start();
    await a.relay.drain();
    expect(b.relay.state).toBe('standby');
    expect(b.written).toEqual([]);

    // A graceful stop releases the lease: no waiting for the TTL, no clock needed.
    await a.relay.stop();
    await append(20);
    await waitFor(() => b.relay.state === 'active', 'b active after a released', 5_000);
    await b.relay.drain();
    const c = instance('c');
    c.relay.start();
    await waitFor(() => c.states.includes('standby'), 'c standing by', 5_000);

    // b dies without releasing: c waits out the TTL by the clock, then takes over.
    b.kill();
    await append(20);
    clock.advance(TTL_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(c.relay.state).toBe('standby');
    clock.advance(2);
    await waitFor(() => c.relay.state === 'active', 'c active after b expired', 5_000);
    await c.relay.drain();

    // One term each, epochs rising with every handover.
    const epochs = [a, b, c].map((i) => [...new Set(i.written.map((w) => w.epoch))]);
    expect(epochs.map((e) => e.length)).toEqual([1, 1, 1]);
    expect(epochs[0][0] < epochs[1][0] && epochs[1][0] < epochs[2][0]).toBe(true);
    // Each resumed exactly where the previous one's checkpoint said: nothing published twice.
    const { raw, unique } = await readTopic(80);
    expect(raw).toHaveLength(80);
    await expectEveryEventOnceInOrder(unique);
    expect(await store.getCheckpoint(RELAY_ID)).toBe(await store.headPosition());
  });

  it('refuses, atomically, the round of an instance paused past its lease: it publishes nothing after waking and stays fenced', async () => {
    await append(30);
    const a = instance('a');
    const b = instance('b');
    a.relay.start();
    await waitFor(() => a.relay.state === 'active', 'a active', 5_000);
    b.relay.start();
    await a.relay.drain();
    const frozen = a.freezeNextRound('before-write');
    await append(30);
    const held = await frozen;

    clock.advance(TTL_MS + 1);
    await waitFor(() => b.relay.state === 'active', 'b taking over from the frozen a', 5_000);
    await append(20);
    await b.relay.drain();
    const writtenBeforeWake = a.written.length;

    a.resume();
    await waitFor(() => a.relay.state === 'fenced', 'a fenced after waking', 5_000);
    await expect(a.relay.drain()).rejects.toBeInstanceOf(RelayFencedError);
    expect(a.written).toHaveLength(writtenBeforeWake);
    expect(a.refused).toEqual([expect.any(RelayFencedError)]);
    await append(10);
    await b.relay.drain();
    expect(a.written).toHaveLength(writtenBeforeWake);

    const { raw, unique } = await readTopic(90);
    // The round a held was published once, by b's term.
    const bEpoch = String(b.relay.epoch);
    const heldOnBus = raw.filter((m) => held.includes(eventIdOf(m) ?? ''));
    expect(heldOnBus.map((m) => m.headers[RelayHeaders.relayEpoch])).toEqual(held.map(() => bEpoch));
    expect(raw).toHaveLength(90);
    await expectEveryEventOnceInOrder(unique);
    expect(await store.getCheckpoint(RELAY_ID)).toBe(await store.headPosition());
  });

  it('lets the next instance re-publish once the round a paused instance wrote but never checkpointed, and the woken one does not move the checkpoint back', async () => {
    await append(30);
    const a = instance('a');
    const b = instance('b');
    const frozen = a.freezeNextRound('after-write');
    a.relay.start();
    const held = await frozen;
    b.relay.start();

    clock.advance(TTL_MS + 1);
    await waitFor(() => b.relay.state === 'active', 'b taking over from the frozen a', 5_000);
    await append(10);
    await b.relay.drain();
    const checkpoint = await store.getCheckpoint(RELAY_ID);

    a.resume();
    await waitFor(() => a.relay.state === 'fenced', 'a fenced after waking', 5_000);
    expect(await store.getCheckpoint(RELAY_ID)).toBe(checkpoint);

    const { raw, unique } = await readTopic(40);
    const twice = [...new Set(raw.map((m) => eventIdOf(m)))].filter(
      (id) => raw.filter((m) => eventIdOf(m) === id).length > 1,
    );
    expect(twice.sort()).toEqual([...held].sort());
    await expectEveryEventOnceInOrder(unique);
  });
});
