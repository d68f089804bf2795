import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  EventRelay,
  KafkaTransactionalPublisher,
  relayTransactionalId,
  SqliteFencedBusPublisher,
  SqliteRelayLeaseStore,
  type EventBus,
  type RelayLeaseStore,
  type RelayPublisher,
} from '@lomo/bus';
import type { LomoConfig } from '@lomo/config';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import { connectMongoDocumentStore } from '@lomo/read-models';
import { DocumentRelayLeaseStore } from './document-relay-lease-store';

export const RELAY = Symbol('RELAY');
export const RELAY_PARTS = Symbol('RELAY_PARTS');
const RELAY_ID = 'bus-relay';

/** The relay and what it holds open, closed after it stops. */
export interface RelayParts {
  relay: EventRelay;
  close(): Promise<void>;
}

/**
 * One active relay, fenced twice (DESIGN.md §4): a lease elects it, and its writes are refused
 * once another instance took over, so a relay paused past its lease publishes nothing when it
 * wakes. On Kafka the fence is a transactional producer with a fixed id; in-process it is the
 * lease epoch checked inside the bus-log write transaction.
 */
export async function createRelay(
  config: LomoConfig,
  store: EventStore,
  bus: EventBus,
  logger: Logger,
): Promise<RelayParts> {
  const log = logger.child({ component: 'relay' });
  const holder = `${config.LOMO_WORKER_ID}-${hostname()}-${randomUUID().slice(0, 8)}`;
  const closers: Array<() => Promise<void> | void> = [];
  let publisher: RelayPublisher | undefined;
  let lease: RelayLeaseStore | undefined;
  if (config.LOMO_RELAY === 'on') {
    if (config.LOMO_BUS === 'in-process') {
      const fenced = SqliteFencedBusPublisher.open({ filename: config.LOMO_BUS_PATH, relayId: RELAY_ID });
      const leases = SqliteRelayLeaseStore.open({ filename: config.LOMO_BUS_PATH });
      closers.push(
        () => fenced.close(),
        () => leases.close(),
      );
      [publisher, lease] = [fenced, leases];
    } else {
      publisher = new KafkaTransactionalPublisher({
        brokers: (config.KAFKA_BROKERS ?? '').split(','),
        transactionalId: relayTransactionalId(RELAY_ID),
        clientId: `${config.KAFKA_CLIENT_ID}-relay`,
        logger: log,
      });
      const relayPublisher = publisher;
      closers.push(() => relayPublisher.close());
      lease = await kafkaModeLeaseStore(config, closers);
    }
  }
  const relay = new EventRelay({
    store,
    bus,
    relayId: RELAY_ID,
    partitions: config.LOMO_BUS_PARTITIONS,
    batchSize: config.LOMO_RELAY_BATCH_SIZE,
    // One indexed read every 20 ms while idle is cheap, and it is most of append-to-visible latency.
    idleIntervalMs: 20,
    logger: log,
    // Operators reading one relay's log should see when it became active, stood by or was fenced.
    onStateChange: (state, epoch) => log.info({ relayId: RELAY_ID, holder, state, epoch }, 'event relay state changed'),
    ...(publisher ? { publisher } : {}),
    ...(lease ? { lease: { store: lease, holder, ttlMs: config.LOMO_RELAY_LEASE_MS } } : {}),
  });
  return {
    relay,
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
}

/** The lease lives where every relay instance can reach it atomically. */
async function kafkaModeLeaseStore(
  config: LomoConfig,
  closers: Array<() => Promise<void> | void>,
): Promise<RelayLeaseStore> {
  if (config.LOMO_EVENTSTORE === 'sqlite') {
    const leases = SqliteRelayLeaseStore.open({ filename: config.LOMO_SQLITE_PATH });
    closers.push(() => leases.close());
    return leases;
  }
  if (!config.MONGODB_URL) throw new Error('The relay lease needs MONGODB_URL when the event store is EventStoreDB');
  const documents = await connectMongoDocumentStore({ url: config.MONGODB_URL, databaseName: config.MONGODB_DATABASE });
  closers.push(() => documents.close());
  return new DocumentRelayLeaseStore(documents);
}
