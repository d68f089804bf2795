import Database from 'better-sqlite3';
import {
  createKafkaEventBus,
  eventIdOf,
  RelayHeaders,
  SqliteRelayLeaseStore,
  type ConsumerHandle,
  type KafkaEventBus,
  type RelayLease,
} from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import type { SqliteEventStore } from '@lomo/eventstore';
import { kafkaBrokers, testBusLogger, uniqueKafkaName } from '../support/kafka-test-env';
import type { AppProcess } from './cluster';
import { lomoTopics } from './lomo-topics';

/** The relay's id in the apps: its checkpoint and its lease are stored under it. */
export const RELAY_ID = 'bus-relay';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One relayed message as a consumer reads it (read_committed: aborted transactions never show). */
export interface Delivery {
  eventId: string;
  epoch: number;
}

/**
 * Everything the relays put on the `lomo.events.*` topics, read from the beginning by a group of
 * its own, with the epoch header of the relay instance that published each message.
 */
export class TopicRecorder {
  readonly deliveries: Delivery[] = [];
  private bus: KafkaEventBus | undefined;
  private handle: ConsumerHandle | undefined;

  async start(): Promise<void> {
    this.bus = createKafkaEventBus({
      brokers: kafkaBrokers,
      clientId: 'lomo-drill-recorder',
      logger: testBusLogger('recorder'),
    });
    this.handle = await this.bus.subscribe({
      groupId: uniqueKafkaName('lomo-drill-recorder'),
      topics: lomoTopics().filter((t) => t.startsWith('lomo.events.')),
      fromBeginning: true,
      maxAttempts: 3,
      backoff: { initialDelayMs: 10, maxDelayMs: 100 },
      handler: async (message) => {
        this.deliveries.push({
          eventId: eventIdOf(message) ?? 'missing',
          epoch: Number(message.headers[RelayHeaders.relayEpoch] ?? Number.NaN),
        });
      },
    });
  }

  /** Waits until every given event id has been read at least once. */
  async seen(eventIds: readonly string[], what: string, timeoutMs = 60_000): Promise<void> {
    await waitFor(
      () => {
        const have = new Set(this.deliveries.map((d) => d.eventId));
        return eventIds.every((id) => have.has(id));
      },
      what,
      timeoutMs,
      50,
    );
  }

  /** Event ids published under `epoch`, as read so far. */
  ofEpoch(epoch: number): string[] {
    return this.deliveries.filter((d) => d.epoch === epoch).map((d) => d.eventId);
  }

  /** (event, epoch) pairs read more than once: one instance publishing the same event twice. */
  duplicatesWithinEpochs(): string[] {
    const seen = new Set<string>();
    const twice: string[] = [];
    for (const d of this.deliveries) {
      const key = `${d.epoch}/${d.eventId}`;
      if (seen.has(key)) twice.push(key);
      seen.add(key);
    }
    return twice;
  }

  async stop(): Promise<void> {
    await this.handle?.stop();
    await this.bus?.close();
  }
}

/** The relay lease as the instances see it, in the event-store file they share. */
export async function currentRelayLease(sqlitePath: string): Promise<RelayLease | undefined> {
  const leases = SqliteRelayLeaseStore.open({ filename: sqlitePath });
  try {
    return await leases.current(RELAY_ID);
  } finally {
    leases.close();
  }
}

/**
 * The relay process holding a live lease (its holder starts with its worker id, the process
 * name), other than `besides`: waits for one to take over from it.
 */
export async function activeRelay(
  sqlitePath: string,
  relays: readonly AppProcess[],
  besides?: AppProcess,
): Promise<{ relay: AppProcess; lease: RelayLease }> {
  let found: { relay: AppProcess; lease: RelayLease } | undefined;
  await waitFor(
    async () => {
      const lease = await currentRelayLease(sqlitePath);
      const relay = relays.find(
        (r) =>
          r !== besides &&
          r.running &&
          lease !== undefined &&
          lease.expiresAt > Date.now() &&
          lease.holder.startsWith(`${r.name}-`),
      );
      found = relay && lease ? { relay, lease } : undefined;
      return found !== undefined;
    },
    'an active relay holding the lease',
    60_000,
    100,
  );
  return found!;
}

/** Whether the relay has events in the store it has not published (its checkpoint is behind the head). */
export async function relayLag(store: SqliteEventStore): Promise<boolean> {
  return (await store.getCheckpoint(RELAY_ID)) !== (await store.headPosition());
}

/**
 * SIGSTOPs the process at a moment it holds no write lock on the shared SQLite file. A process
 * paused inside a write transaction would block every other process's appends for the whole
 * pause (SQLite's lock is per file), which is a different drill. So: stop it, try to take the
 * write lock; if that fails it was inside one, so let it run a moment and try again.
 */
export async function pauseOutsideWriteLock(process: AppProcess, sqlitePath: string): Promise<void> {
  const db = new Database(sqlitePath, { timeout: 500 });
  try {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      process.signal('SIGSTOP');
      try {
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
        return;
      } catch {
        process.signal('SIGCONT');
        await sleep(20);
      }
    }
    throw new Error(`${process.name} held the write lock of ${sqlitePath} at every attempt`);
  } finally {
    db.close();
  }
}
