/**
 * One leased relay instance as its own OS process, for handover drills on real Kafka:
 * `node -r ./scripts/register.cjs libs/bus/src/relay/testing/relay-handover-process.ts
 *  <sqlite event-store file> <topic prefix> <relay id> <holder> <ttl ms> <batch size> <hold ms>`.
 * The lease table lives in the event-store file every instance shares. Reports on stdout, one
 * line each: `state <state> <epoch>`, `sent <epoch> <n>` once a round is in its open transaction
 * (then it holds `hold ms` before committing, a window to SIGSTOP or SIGKILL in),
 * `committed <epoch> <n>` after the commit, `refused <code> <epoch>` when a round failed.
 * SIGTERM stops it cleanly. KAFKA_BROKERS overrides 127.0.0.1:9092.
 */
import { SqliteEventStore } from '@lomo/eventstore';
import { createKafkaEventBus } from '../../kafka';
import { KafkaTransactionalPublisher, relayTransactionalId } from '../../kafka/kafka-transactional-publisher';
import type { BusLogger } from '../../logger';
import { EventRelay } from '../event-relay';
import type { RelayBatch, RelayPublisher } from '../relay-publisher.port';
import { SqliteRelayLeaseStore } from '../sqlite-relay-lease-store';

const [filename, topicPrefix, relayId, holder, ttlMs, batchSize, holdMs] = process.argv.slice(2);
if (!holdMs) {
  process.stderr.write('usage: relay-handover-process.ts <file> <prefix> <relay id> <holder> <ttl> <batch> <hold>\n');
  process.exit(2);
}
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const say = (line: string) => process.stdout.write(`${line}\n`);
const logger: BusLogger = {
  info: () => undefined,
  warn: (context, message) =>
    process.env.LOMO_TEST_LOG === '1' && say(`# ${holder} ${message} ${JSON.stringify(context)}`),
  error: (context, message) => process.stderr.write(`[${holder}] ${message} ${JSON.stringify(context)}\n`),
};

/**
 * Announces each round's outcome, so the parent sees exactly what this instance committed. It
 * withholds the relay's lease-lost signal: a woken relay then always tries its commit, as one
 * whose commit was already on the wire when it was paused would, and only Kafka's fence can
 * stop it. That is the case the drill is there to prove.
 */
function announcing(inner: RelayPublisher): RelayPublisher {
  return {
    activate: (epoch) => inner.activate(epoch),
    publish: async (batches: readonly RelayBatch[], epoch: number) => {
      const n = batches.reduce((sum, b) => sum + b.messages.length, 0);
      try {
        await inner.publish(batches, epoch);
      } catch (error) {
        const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
        say(`refused ${String(code ?? 'unknown')} ${epoch}`);
        throw error;
      }
      say(`committed ${epoch} ${n}`);
    },
    close: () => inner.close(),
  };
}

async function main(): Promise<void> {
  const store = new SqliteEventStore({ filename });
  const leases = SqliteRelayLeaseStore.open({ filename });
  const bus = createKafkaEventBus({ brokers, clientId: `lomo-relay-drill-${holder}`, logger });
  const publisher = new KafkaTransactionalPublisher({
    brokers,
    transactionalId: relayTransactionalId(relayId),
    clientId: `lomo-relay-drill-${holder}`,
    logger,
    afterSend: async ({ epoch, messages }) => {
      say(`sent ${epoch} ${messages}`);
      await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
    },
  });
  const relay = new EventRelay({
    store,
    bus,
    relayId,
    topicPrefix,
    partitions: 4,
    batchSize: Number(batchSize),
    idleIntervalMs: 20,
    backoff: { initialDelayMs: 50, maxDelayMs: 500 },
    logger,
    publisher: announcing(publisher),
    lease: { store: leases, holder, ttlMs: Number(ttlMs) },
    onStateChange: (state, epoch) => say(`state ${state} ${epoch ?? ''}`.trim()),
  });
  process.once('SIGTERM', () => {
    void relay
      .stop()
      .then(() => publisher.close())
      .then(() => bus.close())
      .then(() => store.close())
      .then(() => leases.close())
      .then(() => process.exit(0));
  });
  relay.start();
}

main().catch((error: unknown) => {
  process.stderr.write(`relay process failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
