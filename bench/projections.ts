/**
 * Projection benchmark (`npm run bench:projections`; BENCH_EVENTS to change the log size).
 * Figures, not a timed test. On the embedded stores (SQLite event store, SQLite documents):
 * - rebuild: every read model of the first slice rebuilt from a generated log of BENCH_EVENTS
 *   events (default 1 000 000), timed from runner.start() until every alias switched. The runner
 *   is configured as the projector configures it on SQLite files (`rebuildThreadsOf`): one
 *   worker thread per group of projections, at most one group per core;
 * - reads: `tasks(first: 20)` and `task(id)` through ReadModels (alias + workspace scope), medians;
 * - append-to-visible through the public API (the reported figure): `apps/standalone` started in
 *   this process on a fresh data directory, HTTP on 127.0.0.1; a client sends `sendMessage`, then
 *   asks `message(id, consistentWith: <its token>)` until it shows the message (bench/api-latency.ts,
 *   shared with bench:distributed), BENCH_API_MESSAGES (default 200) after 10 warm-up messages, one
 *   every BENCH_PACE_MS (default 250: each message also routes a task and runs its turn in the same
 *   process). Measured with the projector tailing the store (LOMO_PROJECTOR_FEED=store, the
 *   default in embedded mode), then for comparison with the bus feed (relay + in-process bus, the
 *   default in distributed mode), p50 and p99 of each;
 * - for comparison, append-to-visible through the projector directly (no API): append one event,
 *   poll the consistency check until every projection reading its stream applied it, fed by
 *   tailing the store and then through the relay and the in-process bus.
 * The log is written with plain inserts into the store's table (one transaction per 50 000 rows,
 * synchronous=OFF on that connection): appending a million single events through the store would
 * take minutes on two cores and measure the store, not the projections. Every event is a valid
 * contract event. Progress goes to stderr; stdout ends with one JSON line, whose
 * `append_to_visible_p99_ms` is the API figure with the store feed.
 */
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { EventRelay, InProcessEventBus } from '@lomo/bus';
import { eventRegistry, streams, type NewEvent } from '@lomo/contracts';
import { SqliteEventStore, type EventStore } from '@lomo/eventstore';
import { silentLogger } from '@lomo/observability';
import {
  ProjectionRunner,
  ReadModelConsistency,
  ReadModels,
  readModelProjections,
  SqliteDocumentStore,
  ThreadedRebuildExecutor,
  type TaskDocument,
} from '@lomo/read-models';
import { BusProjectionFeed, StoreProjectionFeed, type ProjectionFeed, rebuildThreadsOf } from '@lomo/application';
import { makeTempDir } from '@lomo/eventstore/testing';
import { counterUuids, writeGeneratedLog, type WrittenLog } from '@lomo/read-models/testing';
import { appendToVisible, type Latency } from './api-latency';
import { startStandaloneInProcess } from './standalone-in-process';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const WORKSPACE = 'bench';
const USERS = 20;
/** Tasks worked on at the same time: how interleaved the log is. */
const CONCURRENT_TASKS = 64;
const TURNS_PER_TASK = 5;
const STEPS_PER_TURN = 3;
const READ_SAMPLES = 500;
const VISIBLE_SAMPLES = 500;
const BUS_VISIBLE_SAMPLES = 50;
const API_MESSAGES = Number(process.env.BENCH_API_MESSAGES ?? 200);
const API_WARMUP = 10;
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 250);

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const note = (line: string) => process.stderr.write(`${line}\n`);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
const p99 = (values: number[]) => sorted(values)[Math.min(values.length - 1, Math.floor(values.length * 0.99))];
const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** One id counter for the generated log and what the bench appends after it: ids never collide. */
const nextUuid = counterUuids();

function writeLog(filename: string): WrittenLog {
  return writeGeneratedLog(filename, EVENTS, {
    workspaceId: WORKSPACE,
    users: USERS,
    concurrentTasks: CONCURRENT_TASKS,
    turnsPerTask: TURNS_PER_TASK,
    stepsPerTurn: STEPS_PER_TURN,
    nextUuid,
    onProgress: (count) => note(`  generated ${count} events`),
  });
}

/** A sample of the generated events, checked against their contract schemas. */
async function assertValidSample(store: EventStore): Promise<void> {
  for (const event of await store.readAll({ maxCount: 2_000 })) {
    const parsed = eventRegistry.get(event.type)?.schema.safeParse(event.data);
    if (!parsed?.success) throw new Error(`Generated ${event.type} does not match its contract`);
  }
}

async function measureReads(reads: ReadModels, taskIds: string[]) {
  const first20: number[] = [];
  const byId: number[] = [];
  for (let i = 0; i < READ_SAMPLES; i += 1) {
    let t = nowMs();
    const page = await reads.listTasks(WORKSPACE, { first: 20 });
    first20.push(nowMs() - t);
    if (page.items.length !== 20) throw new Error('tasks(first: 20) returned fewer than 20 tasks');
    t = nowMs();
    const task = await reads.getTask(WORKSPACE, taskIds[(i * 7_919) % taskIds.length]);
    byId.push(nowMs() - t);
    if (task === undefined) throw new Error('task(id) found nothing');
  }
  return { first20: median(first20), byId: median(byId) };
}

/** Appends a delivery to an existing task and polls the consistency check until it is applied. */
async function measureAppendToVisible(
  store: EventStore,
  consistency: ReadModelConsistency,
  taskIds: string[],
  samples: number,
) {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const taskId = taskIds[(i * 104_729) % taskIds.length];
    const itemId = nextUuid();
    const event: NewEvent = {
      eventId: nextUuid(),
      type: 'MessageDeliveredToInbox',
      data: { itemId, messageId: itemId, text: 'one more thing', language: 'en' },
      metadata: { correlationId: 'bench-visible', causationId: null, workspaceId: WORKSPACE, actor: { kind: 'agent' } },
    };
    const started = nowMs();
    const written = await store.append(streams.task(taskId), [event], 'stream_exists');
    const token = [{ streamId: written.streamId, revision: written.nextExpectedRevision }];
    while ((await consistency.pending(token)).length > 0) await new Promise((resolve) => setImmediate(resolve));
    latencies.push(nowMs() - started);
  }
  return p99(latencies);
}

async function main(): Promise<void> {
  const temp = makeTempDir('bench-projections');
  try {
    const eventsFile = join(temp.dir, 'events.sqlite');
    const store = new SqliteEventStore({ filename: eventsFile, pollIntervalMs: 5 });
    note(`generating ${EVENTS} events (plain inserts) ...`);
    const generated = writeLog(eventsFile);
    note(`generated ${generated.events} events, ${generated.tasks} tasks in ${(generated.millis / 1000).toFixed(1)} s`);
    await assertValidSample(store);

    const documentsFile = join(temp.dir, 'read-models.sqlite');
    const documents = new SqliteDocumentStore({ filename: documentsFile });
    // As ProjectorModule configures it on SQLite files.
    const rebuildThreads = rebuildThreadsOf(
      { mongodbUrl: undefined, sqlitePath: documentsFile, rebuildThreads: availableParallelism() },
      { LOMO_EVENTSTORE: 'sqlite', LOMO_SQLITE_PATH: eventsFile },
    );
    const runner = new ProjectionRunner({
      documents,
      events: store,
      projections: readModelProjections,
      logger: silentLogger,
      rebuildExecutor: rebuildThreads && new ThreadedRebuildExecutor(rebuildThreads),
    });
    note(`rebuilding every projection from the log (${rebuildThreads?.threads ?? 0} rebuild threads at most) ...`);
    const rebuildStarted = nowMs();
    const cpuStarted = process.cpuUsage();
    await runner.start();
    await runner.ready();
    const rebuildSeconds = (nowMs() - rebuildStarted) / 1000;
    const cpu = process.cpuUsage(cpuStarted);
    const rebuildPerSecond = generated.events / rebuildSeconds;
    note(
      `rebuild: ${generated.events} events in ${rebuildSeconds.toFixed(1)} s = ${Math.round(rebuildPerSecond)} events/s (target >= 100000)`,
    );
    // The machine is shared: CPU time and load say how much of the wall time was this process's.
    note(
      `  rebuild CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (GC threads included), load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    const reads = new ReadModels(documents, runner.aliases);
    const tasksCollection = (await runner.aliases.collectionOf('tasks')) as string;
    const taskIds: string[] = [];
    for (let after: string | undefined; ;) {
      const page = await documents.find<TaskDocument>(tasksCollection, { limit: 500, after });
      taskIds.push(...page.items.map((t) => t._id));
      if (!page.hasMore) break;
      after = page.endCursor;
    }
    const readFigures = await measureReads(reads, taskIds);
    note(
      `reads over ${taskIds.length} tasks: tasks(first: 20) median ${readFigures.first20.toFixed(3)} ms (target < 10), task(id) median ${readFigures.byId.toFixed(3)} ms`,
    );

    const consistency = new ReadModelConsistency(documents, runner.aliases, readModelProjections);
    const storeFeed: ProjectionFeed = new StoreProjectionFeed({
      events: store,
      runner,
      projections: readModelProjections,
      logger: silentLogger,
    });
    await storeFeed.start();
    const visibleP99 = await measureAppendToVisible(store, consistency, taskIds, VISIBLE_SAMPLES);
    await storeFeed.stop();
    note(
      `append-to-visible through the projector directly (store feed, no API): p99 ${visibleP99.toFixed(2)} ms over ${VISIBLE_SAMPLES} appends`,
    );

    const bus = InProcessEventBus.open({ filename: join(temp.dir, 'bus.sqlite'), logger: silentLogger });
    // The relay starts at the head: republishing the whole generated log is not what is measured.
    const head = await store.headPosition();
    if (head !== undefined) await store.saveCheckpoint('bench-relay', head);
    const relay = new EventRelay({ store, bus, partitions: 8, relayId: 'bench-relay' });
    await relay.ensureTopics();
    relay.start();
    const busFeed = new BusProjectionFeed({
      bus,
      runner,
      projections: readModelProjections,
      partitions: 8,
      maxAttempts: 5,
      logger: silentLogger,
    });
    await busFeed.start();
    await relay.drain();
    const busP99 = await measureAppendToVisible(store, consistency, taskIds, BUS_VISIBLE_SAMPLES);
    note(
      `append-to-visible through the projector directly (relay + in-process bus, default timings): p99 ${busP99.toFixed(2)} ms over ${BUS_VISIBLE_SAMPLES} appends`,
    );
    await busFeed.stop();
    await relay.stop();
    await bus.close();

    await runner.stop();
    await documents.close();
    await store.close();

    const api = await apiAppendToVisible(temp.dir, 'store');
    const apiBus = await apiAppendToVisible(temp.dir, 'bus');
    console.log(
      JSON.stringify({
        rebuild_events_per_s: Math.round(rebuildPerSecond),
        tasks_first20_median_ms: round(readFigures.first20),
        task_by_id_median_ms: round(readFigures.byId),
        append_to_visible_p99_ms: api.p99,
        append_to_visible_p50_ms: api.p50,
        append_to_visible_p99_ms_bus_feed: apiBus.p99,
        append_to_visible_p99_ms_projector_direct: round(visibleP99, 2),
      }),
    );
  } finally {
    temp.remove();
  }
}

/** apps/standalone in this process on a fresh data directory, measured through its GraphQL API. */
async function apiAppendToVisible(parent: string, feed: 'store' | 'bus'): Promise<Latency> {
  const dataDir = join(parent, `standalone-${feed}`);
  const app = await startStandaloneInProcess(dataDir, { LOMO_PROJECTOR_FEED: feed });
  try {
    const token = await app.token(WORKSPACE, 'u0');
    const label = `api (${feed} feed)`;
    const latency = await appendToVisible({
      url: app.url,
      token,
      messages: API_MESSAGES,
      warmup: API_WARMUP,
      paceMs: PACE_MS,
      label,
      note,
    });
    note(
      `append-to-visible through the API, projector fed by the ${feed === 'store' ? 'store' : 'bus (relay + in-process bus)'}: p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms over ${latency.n} messages, one every ${PACE_MS} ms${feed === 'store' ? ' (target p99 < 50)' : ''}`,
    );
    return latency;
  } finally {
    await app.close();
  }
}

main().then(
  // The in-process app may leave a timer behind; the figures are out.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
