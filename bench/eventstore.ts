/**
 * Event store benchmark (`npm run bench:eventstore [-- --synchronous NORMAL]`). Figures, not a
 * timed test. Every contestant runs on WAL with the same synchronous mode; the store and the plain
 * better-sqlite3 inserts alternate within each round so machine noise hits both, and each
 * figure is the median of its rounds. Ends with one JSON line for tooling.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { NewEvent } from '@lomo/contracts';
import { DEFAULT_SYNCHRONOUS, SqliteEventStore, applyPragmas, type SynchronousMode } from '@lomo/eventstore';
import { makeTempDir, newTurnStreamId, sampleEventsFor } from '@lomo/eventstore/testing';

const ROUNDS = 5;
const SINGLE_APPENDS = 1_000;
const BATCH_EVENTS = 5_000;
const READ_STORE_EVENTS = 200_000;
const STREAMS = 100;

const synchronous: SynchronousMode = process.argv.includes('--synchronous')
  ? (process.argv[process.argv.indexOf('--synchronous') + 1] as SynchronousMode)
  : DEFAULT_SYNCHRONOUS;
const pragmas = { synchronous, busyTimeoutMs: 5_000 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Streams of TurnLeased events whose exact revision the writer tracks, as a command handler does. */
class Workload {
  private readonly streams = Array.from({ length: STREAMS }, () => newTurnStreamId());
  private readonly revisions = new Map<string, number>();
  private turn = 0;

  next(size: number): { streamId: string; events: NewEvent[]; expected: number | 'no_stream' } {
    const streamId = this.streams[this.turn++ % this.streams.length];
    const last = this.revisions.get(streamId);
    this.revisions.set(streamId, (last ?? -1) + size);
    return { streamId, events: sampleEventsFor(streamId, size, 1), expected: last ?? 'no_stream' };
  }
}

async function singleAppends(store: SqliteEventStore, workload: Workload) {
  const latencies: number[] = [];
  const started = nowMs();
  for (let i = 0; i < SINGLE_APPENDS; i += 1) {
    const { streamId, events, expected } = workload.next(1);
    const t = nowMs();
    await store.append(streamId, events, expected);
    latencies.push(nowMs() - t);
  }
  return { perSecond: SINGLE_APPENDS / ((nowMs() - started) / 1000), p99: percentile(latencies, 0.99) };
}

async function batchAppends(store: SqliteEventStore, workload: Workload, size: number): Promise<number> {
  const calls = BATCH_EVENTS / size;
  const started = nowMs();
  for (let i = 0; i < calls; i += 1) {
    const { streamId, events, expected } = workload.next(size);
    await store.append(streamId, events, expected);
  }
  return BATCH_EVENTS / ((nowMs() - started) / 1000);
}

/** The engine's limit: the same rows, one transaction per insert, none of the store's logic. */
function plainInserts(db: Database.Database, workload: Workload): number {
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, schema_version, data, metadata, occurred_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const rows = Array.from({ length: SINGLE_APPENDS }, () => {
    const { streamId, events, expected } = workload.next(1);
    const [event] = events;
    const revision = expected === 'no_stream' ? 0 : expected + 1;
    return [
      streamId,
      revision,
      event.eventId,
      event.type,
      1,
      JSON.stringify(event.data),
      JSON.stringify(event.metadata),
      new Date().toISOString(),
    ] as const;
  });
  const insertOne = db.transaction((row: (typeof rows)[number]) => insert.run(...row));
  const started = nowMs();
  for (const row of rows) insertOne.immediate(row);
  return SINGLE_APPENDS / ((nowMs() - started) / 1000);
}

async function seed(store: SqliteEventStore, events: number): Promise<void> {
  const workload = new Workload();
  for (let written = 0; written < events; written += 100) {
    const { streamId, events: batch, expected } = workload.next(100);
    await store.append(streamId, batch, expected);
  }
}

async function main(): Promise<void> {
  const temp = makeTempDir('bench-eventstore');
  try {
    const store = new SqliteEventStore({ filename: join(temp.dir, 'store.sqlite'), synchronous });
    // The plain file gets the store's schema and pragmas, then only raw inserts.
    const plainFile = join(temp.dir, 'plain.sqlite');
    await new SqliteEventStore({ filename: plainFile, synchronous }).close();
    const plain = new Database(plainFile);
    applyPragmas(plain, pragmas);
    const reader = new SqliteEventStore({ filename: join(temp.dir, 'read.sqlite'), synchronous });
    console.log(`settings: ${JSON.stringify(store.settings())}, ${ROUNDS} rounds, medians`);
    await seed(reader, READ_STORE_EVENTS);

    const storeWorkload = new Workload();
    const plainWorkload = new Workload();
    const figures = {
      single: [] as number[],
      p99: [] as number[],
      batch10: [] as number[],
      batch100: [] as number[],
      readAll: [] as number[],
      plain: [] as number[],
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      const runStore = async () => {
        const single = await singleAppends(store, storeWorkload);
        figures.single.push(single.perSecond);
        figures.p99.push(single.p99);
      };
      const runPlain = async () => {
        figures.plain.push(plainInserts(plain, plainWorkload));
      };
      // Alternate who goes first, so drift within a round does not favour one side.
      for (const run of round % 2 === 0 ? [runStore, runPlain] : [runPlain, runStore]) await run();
      figures.batch10.push(await batchAppends(store, storeWorkload, 10));
      figures.batch100.push(await batchAppends(store, storeWorkload, 100));
      const started = nowMs();
      const all = await reader.readAll();
      figures.readAll.push(all.length / ((nowMs() - started) / 1000));
      if (all.length !== READ_STORE_EVENTS) throw new Error(`readAll returned ${all.length} events`);
    }

    const result = {
      single_append_per_s: Math.round(median(figures.single)),
      single_append_p99_ms: Number(median(figures.p99).toFixed(3)),
      batch10_events_per_s: Math.round(median(figures.batch10)),
      batch100_events_per_s: Math.round(median(figures.batch100)),
      read_all_events_per_s: Math.round(median(figures.readAll)),
      plain_insert_per_s: Math.round(median(figures.plain)),
    };
    const ratio = result.plain_insert_per_s / result.single_append_per_s;
    console.log(`single-event append    ${result.single_append_per_s} /s, p99 ${result.single_append_p99_ms} ms`);
    console.log(
      `plain insert (limit)   ${result.plain_insert_per_s} /s  -> plain/store = ${ratio.toFixed(2)} (target <= 2)`,
    );
    console.log(`10-event batches       ${result.batch10_events_per_s} events/s`);
    console.log(`100-event batches      ${result.batch100_events_per_s} events/s`);
    console.log(`readAll ${READ_STORE_EVENTS} events  ${result.read_all_events_per_s} events/s (target >= 200000)`);
    await Promise.all([store.close(), reader.close()]);
    plain.close();
    console.log(JSON.stringify(result));
  } finally {
    temp.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
