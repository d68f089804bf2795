/**
 * Kafka bus benchmark (`npm run bench:kafka`; needs `bash scripts/infra/kafka.sh start`).
 * Figures, not a timed test. Two measurements on the real broker:
 * - relay: a SQLite store pre-filled with EVENTS events; the relay publishes them into Kafka in
 *   batches and checkpoints each batch; timed from start until drain() resolves (everything
 *   published with acks from all in-sync replicas and checkpointed);
 * - consumer: a new group reads those topics from the beginning through the adapter's consumer
 *   with a trivial handler (offsets committed per batch); timed from the moment subscribe()
 *   resolved (group joined) until the last event was handled.
 * Progress goes to stderr; stdout gets exactly one JSON line at the end.
 */
import { join } from 'node:path';
import { SqliteEventStore } from '@lomo/eventstore';
import { createKafkaEventBus, EventRelay } from '@lomo/bus';
import { makeTempDir, newTaskStreamId, newTurnStreamId, sampleEventsFor } from '@lomo/eventstore/testing';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const STREAMS = 1_000;
const RELAY_BATCH = 2_000;
const PARTITIONS = 8;
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const note = (line: string) => process.stderr.write(`${line}\n`);

async function prefill(store: SqliteEventStore): Promise<void> {
  const perStream = Math.ceil(EVENTS / STREAMS);
  let written = 0;
  for (let s = 0; s < STREAMS && written < EVENTS; s += 1) {
    const streamId = s % 2 === 0 ? newTaskStreamId() : newTurnStreamId();
    const count = Math.min(perStream, EVENTS - written);
    await store.append(streamId, sampleEventsFor(streamId, count), 'no_stream');
    written += count;
  }
}

async function main(): Promise<void> {
  const temp = makeTempDir('bench-kafka');
  const store = new SqliteEventStore({ filename: join(temp.dir, 'events.sqlite') });
  const bus = createKafkaEventBus({ brokers, clientId: 'lomo-bench' });
  const run = `${Date.now().toString(36)}`;
  const topicPrefix = `bench.${run}.`;
  try {
    let t = nowMs();
    await prefill(store);
    note(`prefilled ${EVENTS} events in ${((nowMs() - t) / 1000).toFixed(1)} s`);

    const relay = new EventRelay({
      store,
      bus,
      relayId: 'bench-relay',
      topicPrefix,
      partitions: PARTITIONS,
      batchSize: RELAY_BATCH,
    });
    await relay.ensureTopics(['task', 'turn']);
    t = nowMs();
    relay.start();
    await relay.drain();
    const relaySeconds = (nowMs() - t) / 1000;
    await relay.stop();
    const relayRate = EVENTS / relaySeconds;
    note(
      `relay: ${EVENTS} events in ${relaySeconds.toFixed(2)} s = ${Math.round(relayRate)} events/s (batches of ${RELAY_BATCH})`,
    );

    let handled = 0;
    let resolveAll: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (resolveAll = resolve));
    const joinStarted = nowMs();
    const handle = await bus.subscribe({
      groupId: `bench.${run}.consumer`,
      topics: [`${topicPrefix}task`, `${topicPrefix}turn`],
      fromBeginning: true,
      maxAttempts: 1,
      backoff: { initialDelayMs: 10, maxDelayMs: 100 },
      handler: async () => {
        handled += 1;
        if (handled === EVENTS) resolveAll();
      },
    });
    t = nowMs();
    note(`consumer joined in ${((t - joinStarted) / 1000).toFixed(2)} s`);
    await all;
    const consumerSeconds = (nowMs() - t) / 1000;
    await handle.stop();
    const consumerRate = EVENTS / consumerSeconds;
    note(`consumer: ${EVENTS} events in ${consumerSeconds.toFixed(2)} s = ${Math.round(consumerRate)} events/s`);

    process.stdout.write(
      `${JSON.stringify({ relay_events_per_s: Math.round(relayRate), consumer_events_per_s: Math.round(consumerRate) })}\n`,
    );
  } finally {
    await bus.close();
    await store.close();
    temp.remove();
  }
}

main().catch((error: unknown) => {
  note(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
