/**
 * Distributed-mode benchmark (`npm run bench:distributed`; needs `bash scripts/infra/kafka.sh
 * start` and `bash scripts/infra/ferretdb.sh start`). Figures, not a timed test. One run measures,
 * one after the other so that no two compete for the two cores:
 * - append-to-visible on Kafka + FerretDB: relay, router, projector, executor, notifier and api,
 *   each its own process (the drills' deployment, test/distributed/multi-process). A client sends
 *   `sendMessage`, then asks `message(id, consistentWith: <its token>)`, which answers once the
 *   read model shows the message (polled if the bounded wait ran out). Latency is from just
 *   before the mutation to the answer that shows it: store append, relay, Kafka, projector,
 *   FerretDB, the change reaching the API. Messages are paced (one every BENCH_PACE_MS, default
 *   1000), so this is latency under a steady load, not a queue under saturation;
 * - the same through the embedded mode (`apps/standalone`: one process, SQLite, in-process bus);
 * - relay throughput as deployed: a SQLite store pre-filled with BENCH_EVENTS events, the relay
 *   under a lease publishing through the Kafka transactional producer in batches and saving its
 *   checkpoint each batch, timed until drain() resolves;
 * - consumer throughput: a new group reads those topics from the beginning through the bus
 *   adapter's consumer with a trivial handler, timed from the group join to the last event.
 * Progress goes to stderr. stdout: a side-by-side table, then exactly one JSON line, last.
 * BENCH_MESSAGES (default 100) and BENCH_EVENTS (default 100 000) change the sizes. Each
 * message becomes a task of its own (the offline router opens one per note-like message), so the
 * read models grow during the run; stderr shows the median of the first and last quarter.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createKafkaEventBus,
  EventRelay,
  KafkaTransactionalPublisher,
  relayTransactionalId,
  SqliteRelayLeaseStore,
} from '@lomo/bus';
import { SqliteEventStore } from '@lomo/eventstore';
import { newTaskStreamId, newTurnStreamId, sampleEventsFor } from '@lomo/eventstore/testing';
import { Cluster } from '../test/distributed/multi-process/cluster';
import { Drill, KAFKA_BROKERS } from '../test/distributed/multi-process/drill';
import { appendToVisible as measureAppendToVisible, type Latency } from './api-latency';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
const WARMUP = 10;
/**
 * One message every PACE_MS, a person's pace. Each message is routed into a new task whose turn
 * runs (a dozen events, several read-model documents): on two cores FerretDB's SQLite backend
 * spends about a third of a core per message, so at one message every 250 ms the pipeline
 * saturates and this would measure a growing queue (p99 about 2 s), not the latency.
 */
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const STREAMS = 1_000;
const RELAY_BATCH = 2_000;
const PARTITIONS = 8;

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const note = (line: string) => process.stderr.write(`${line}\n`);

/** Paced messages through one API, each timed until the read model shows it (bench/api-latency.ts). */
function appendToVisible(url: string, token: string, label: string): Promise<Latency> {
  return measureAppendToVisible({ url, token, messages: MESSAGES, warmup: WARMUP, paceMs: PACE_MS, label, note });
}

async function kafkaLatency(): Promise<Latency> {
  // The drills' short leases and one-second scans suit crash tests; a benchmark runs the
  // defaults a deployment would (the projector's sweep and the watchdog read the whole log).
  const drill = new Drill({
    LOMO_LEASE_MS: '30000',
    LOMO_WATCHDOG_INTERVAL_MS: '10000',
    LOMO_PROJECTOR_SWEEP_MS: '5000',
    KAFKA_SESSION_TIMEOUT_MS: '30000',
    KAFKA_HEARTBEAT_INTERVAL_MS: '1000',
  });
  try {
    note('kafka: starting relay, router, projector, executor, notifier, api as separate processes');
    await drill.start({ relays: 1, executors: 1, apis: 1 });
    const token = await drill.newToken('bench');
    return await appendToVisible(drill.api(), token, 'kafka');
  } finally {
    await drill.stop();
  }
}

async function embeddedLatency(): Promise<Latency> {
  const dir = mkdtempSync(join(tmpdir(), 'lomo-bench-embedded-'));
  const cluster = new Cluster({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    LOMO_MODE: 'embedded',
    LOMO_DATA_DIR: dir,
    PORT: '0',
    LOMO_API_RATE_LIMIT_BURST: '10000',
    LOMO_API_RATE_LIMIT_PER_SECOND: '10000',
  });
  try {
    note('embedded: starting apps/standalone');
    const app = await cluster.start('standalone', 'standalone');
    const line = await app.waitForLog((l) => typeof l.devToken === 'string', 'the dev token', 30_000);
    return await appendToVisible(app.url!, String(line.devToken), 'embedded');
  } finally {
    await cluster.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

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

async function throughput(): Promise<{ relay: number; consumer: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'lomo-bench-relay-'));
  const filename = join(dir, 'events.sqlite');
  const store = new SqliteEventStore({ filename });
  const leases = SqliteRelayLeaseStore.open({ filename });
  const bus = createKafkaEventBus({ brokers: KAFKA_BROKERS, clientId: 'lomo-bench-distributed' });
  const run = Date.now().toString(36);
  const topicPrefix = `bench-distributed.${run}.`;
  const relayId = `bench-relay-${run}`;
  const publisher = new KafkaTransactionalPublisher({
    brokers: KAFKA_BROKERS,
    transactionalId: relayTransactionalId(relayId),
    clientId: 'lomo-bench-distributed-relay',
  });
  try {
    let t = nowMs();
    await prefill(store);
    note(`relay: prefilled ${EVENTS} events in ${((nowMs() - t) / 1000).toFixed(1)} s`);
    const relay = new EventRelay({
      store,
      bus,
      relayId,
      topicPrefix,
      partitions: PARTITIONS,
      batchSize: RELAY_BATCH,
      publisher,
      lease: { store: leases, holder: 'bench', ttlMs: 10_000 },
    });
    await relay.ensureTopics(['task', 'turn']);
    t = nowMs();
    relay.start();
    await relay.drain();
    const relaySeconds = (nowMs() - t) / 1000;
    await relay.stop();
    note(`relay: ${EVENTS} events in ${relaySeconds.toFixed(2)} s (leased, transactional, batches of ${RELAY_BATCH})`);

    let handled = 0;
    let resolveAll: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (resolveAll = resolve));
    const handle = await bus.subscribe({
      groupId: `bench-distributed.${run}.consumer`,
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
    await all;
    const consumerSeconds = (nowMs() - t) / 1000;
    await handle.stop();
    note(`consumer: ${EVENTS} events in ${consumerSeconds.toFixed(2)} s`);
    return { relay: Math.round(EVENTS / relaySeconds), consumer: Math.round(EVENTS / consumerSeconds) };
  } finally {
    await publisher.close();
    await bus.close();
    leases.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const kafka = await kafkaLatency();
  const embedded = await embeddedLatency();
  const rates = await throughput();

  const row = (name: string, l: Latency) =>
    `${name.padEnd(34)} ${String(l.p50).padStart(8)} ${String(l.p99).padStart(8)} ${String(l.max).padStart(8)} ${String(l.n).padStart(6)}`;
  process.stdout.write(
    [
      `${'append-to-visible (ms)'.padEnd(34)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(8)} ${'n'.padStart(6)}`,
      row('kafka + ferretdb, separate apps', kafka),
      row('embedded (standalone)', embedded),
      `(one message every ${PACE_MS} ms, after ${WARMUP} warm-up messages)`,
      `relay: ${rates.relay} events/s, consumer: ${rates.consumer} events/s (${EVENTS} events, ${PARTITIONS} partitions)`,
      JSON.stringify({
        relay_events_per_s: rates.relay,
        consumer_events_per_s: rates.consumer,
        append_to_visible_p99_ms_kafka: kafka.p99,
        append_to_visible_p99_ms_embedded: embedded.p99,
      }),
      '',
    ].join('\n'),
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    note(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);
