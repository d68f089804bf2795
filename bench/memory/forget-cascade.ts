import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  ConfirmMemoryForgetting,
  ConfirmMemoryForgettingHandler,
  MEMORY_COMMAND_FOLDS_KEPT,
  RequestMemoryForgetting,
  RequestMemoryForgettingHandler,
} from '@lomo/application';
import { FilesystemBlobStore } from '@lomo/blobs';
import {
  streams,
  type EventDataMap,
  type EvidenceSource,
  type ForgettingReport,
  type NewEvent,
  type WriteMetadata,
} from '@lomo/contracts';
import {
  foldMemory,
  initialMemoryState,
  memoryDecider,
  taskDecider,
  type MemoryCommand,
  type MemoryEvent,
  type MemoryState,
  type TaskCommand,
  type TaskEvent,
} from '@lomo/domain';
import { SqliteEventStore } from '@lomo/eventstore';
import { ConceptEmbeddingProvider } from '@lomo/llm';
import {
  evidenceFingerprint,
  memoryFingerprint,
  memoryText,
  MemoryIndexCatalog,
  MemoryIndexer,
  MemoryRunner,
  MemoryStreamCache,
  OfflineMemoryExtractor,
} from '@lomo/memory';
import { createLogger } from '@lomo/observability';
import { SqliteSearchIndex } from '@lomo/routing';
import type { Prng } from './prng';

const WORKSPACE = 'ws_forget_bench';
const USER = 'user_forget_bench';
const AT = '2026-03-01T00:00:00.000Z';
type Version = EventDataMap['MemoryVersionCreated'];

/** One forgettable cluster of the same shape as forget-timing.ts's state (per forgotten evidence). */
interface Cluster {
  forgotten: string;
  v1: string;
  v2: string;
  d1: string;
  d2: string;
  confirmed: string[];
  summaries: string[];
  tasks: string[];
}

interface Seeded {
  dir: string;
  store: SqliteEventStore;
  blobs: FilesystemBlobStore;
  search: SqliteSearchIndex;
  catalog: MemoryIndexCatalog;
  indexer: MemoryIndexer;
  clusters: Cluster[];
  events: number;
  close(): Promise<void>;
}

/**
 * Seeds a real data dir (SQLite event store, filesystem BlobStore, the SQLite recall index the
 * memory worker keeps) with `count` memories of one person: `clusters` forgettable clusters, each
 * of forget-timing.ts's shape (a forgotten message that is the ORIGIN of v1, refined into v2
 * (v1 superseded), two memories derived in turn from v2 (v2 → d1 → d2: derivation depth 3), a
 * CONFIRM on 20 other memories, named by the profile and by 4 of 6 episode summaries), the rest
 * one memory per message. The events are the memory decider's own: each command is decided
 * against the part of the state it names (so the seed obeys the domain's rules) and appended in
 * batches; the texts are in the BlobStore; the cluster's messages are in real task inboxes, so
 * re-extraction reads them and the task exclusion finds them. Not timed.
 */
async function seed(prng: Prng, count: number, clusterCount: number): Promise<Seeded> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lomo-forget-bench-'));
  const store = new SqliteEventStore({ filename: path.join(dir, 'events.sqlite'), synchronous: 'NORMAL' });
  const blobs = new FilesystemBlobStore(path.join(dir, 'blobs'));
  const embedder = new ConceptEmbeddingProvider();
  const search = new SqliteSearchIndex({
    database: path.join(dir, 'memory-search.sqlite'),
    dimensions: embedder.dimensions,
    tablePrefix: 'memory',
  });
  const catalog = new MemoryIndexCatalog();
  const clock = { now: () => new Date('2026-06-01T00:00:00.000Z') };
  const indexer = new MemoryIndexer({ index: search, embedder, blobs, catalog, clock });
  const metadata: WriteMetadata = {
    correlationId: 'forget-bench-seed',
    causationId: null,
    workspaceId: WORKSPACE,
    actor: { kind: 'system', component: 'memory-seed' },
  };
  const memoryStream = streams.memory(WORKSPACE, USER);
  let revision: number | 'no_stream' = 'no_stream';
  let pending: NewEvent[] = [];
  let events = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const result = await store.append(memoryStream, pending, revision);
    revision = result.nextExpectedRevision;
    events += pending.length;
    pending = [];
  };
  /** Decided against `state` (the part of the person's memory the commands name), queued for append. */
  const decide = async (state: MemoryState, commands: MemoryCommand[]): Promise<MemoryState> => {
    let s = state;
    for (const command of commands) {
      for (const event of memoryDecider.decide(command, s)) {
        s = memoryDecider.evolve(s, event);
        pending.push({ eventId: prng.uuid(), type: event.type, data: event.data, metadata });
      }
    }
    if (pending.length >= 2_000) await flush();
    return s;
  };
  const message = (messageId = prng.uuid(), taskId?: string): EvidenceSource => ({
    kind: 'message',
    messageId,
    language: 'en',
    ...(taskId !== undefined ? { taskId } : {}),
  });
  const version = async (
    v: Partial<Version> & Pick<Version, 'evidence'> & { claim: string; value: string },
  ): Promise<Version> => {
    const subject = v.subject ?? `topic.n${prng.uuid().slice(0, 8)}`;
    return {
      memoryId: v.memoryId ?? prng.uuid(),
      versionId: prng.uuid(),
      version: v.version ?? 1,
      subject,
      kind: 'preference',
      scope: { kind: 'long_term' },
      origin: 'explicit',
      text: await blobs.put(memoryText(v.claim, subject, v.value), 'text/plain'),
      fingerprint: memoryFingerprint(subject, v.value),
      validFrom: AT,
      evidence: v.evidence,
      derivedFrom: v.derivedFrom ?? [],
      cause: v.cause ?? 'extracted',
    };
  };
  /** Evidence and its extraction, as one extraction appends them. */
  const extract = async (
    state: MemoryState,
    source: EvidenceSource,
    words: string,
    made: (evidenceId: string) => Promise<{
      versions?: Version[];
      supersessions?: EventDataMap['MemoryVersionSuperseded'][];
      confirmations?: EventDataMap['MemoryVersionConfirmed'][];
    }>,
    evidenceId = prng.uuid(),
  ): Promise<{ state: MemoryState; evidenceId: string; versions: Version[] }> => {
    const { versions = [], supersessions = [], confirmations = [] } = await made(evidenceId);
    const outcomes = [
      ...versions.map((v, index) => ({
        index,
        outcome: v.cause === 'refined' ? ('refined' as const) : ('created' as const),
        memoryId: v.memoryId,
        versionId: v.versionId,
      })),
      ...confirmations.map((c, i) => ({
        index: versions.length + i,
        outcome: 'confirmed' as const,
        memoryId: c.memoryId,
        versionId: c.versionId,
      })),
    ];
    const next = await decide(state, [
      { type: 'RecordEvidence', evidenceId, source, at: AT, fingerprint: evidenceFingerprint(words) },
      {
        type: 'RecordExtraction',
        extraction: { evidenceId, extractor: 'offline_rules', candidates: outcomes.length, outcomes },
        versions,
        supersessions,
        confirmations,
      },
    ]);
    return { state: next, evidenceId, versions };
  };
  /** A real task whose inbox holds the person's messages (what re-extraction and exclusion read). */
  const task = async (texts: string[]): Promise<{ taskId: string; messageIds: string[] }> => {
    const taskId = prng.uuid();
    const messageIds = texts.map(() => prng.uuid());
    const commands: TaskCommand[] = [
      {
        type: 'CreateTask',
        taskId,
        kind: 'persistent',
        goal: texts[0]!,
        language: 'en',
        originMessageId: messageIds[0]!,
      },
      ...texts.map((text, i): TaskCommand => ({
        type: 'DeliverMessage',
        itemId: messageIds[i]!,
        text,
        language: 'en',
        from: USER,
      })),
    ];
    let state = taskDecider.initialState();
    const out: NewEvent[] = [];
    for (const command of commands)
      for (const event of taskDecider.decide(command, state)) {
        state = taskDecider.evolve(state, event as TaskEvent);
        out.push({
          eventId: prng.uuid(),
          type: event.type,
          data: event.data,
          metadata: { ...metadata, actor: { kind: 'user', userId: USER } },
        });
      }
    await store.append(streams.task(taskId), out, 'no_stream');
    return { taskId, messageIds };
  };

  // The other memories, one per message, each independent of the rest: decided on its own.
  const fillerCount = count - 4 * clusterCount;
  const fillers: Version[] = [];
  // The part of the state the clusters and the profile name (the fillers they confirm or list).
  let named = initialMemoryState();
  for (let i = 0; i < fillerCount; i += 1) {
    const words = `I like option ${i} for topic ${i}`;
    const namedHere = i < 24 * clusterCount + 40;
    const r = await extract(namedHere ? named : initialMemoryState(), message(), words, async (e) => ({
      versions: [
        await version({
          claim: `The person likes option ${i}.`,
          value: `option ${i}`,
          evidence: [{ evidenceId: e, role: 'ORIGIN' }],
        }),
      ],
    }));
    if (namedHere) named = r.state;
    fillers.push(r.versions[0]!);
  }

  const clusters: Cluster[] = [];
  for (let c = 0; c < clusterCount; c += 1) {
    const brand = `brand${c}.colour.main`;
    const words = [
      `Our brand ${c}'s main colour is blue`,
      `Blue with off-white is softer for brand ${c}`,
      `Use a navy border with it on brand ${c}'s cards`,
      `And a navy footer on brand ${c}'s pages`,
    ];
    const tasks = [];
    for (const w of words) tasks.push(await task([w]));
    const confirmed = fillers.slice(20 * c, 20 * c + 20);
    const r0 = await extract(named, message(tasks[0]!.messageIds[0], tasks[0]!.taskId), words[0]!, async (e) => ({
      versions: [
        await version({
          subject: brand,
          claim: `The brand ${c}'s main colour is blue.`,
          value: 'blue',
          evidence: [{ evidenceId: e, role: 'ORIGIN' }],
        }),
      ],
      confirmations: confirmed.map((v) => ({ memoryId: v.memoryId, versionId: v.versionId, evidenceId: e })),
    }));
    const v1 = r0.versions[0]!;
    const r1 = await extract(r0.state, message(tasks[1]!.messageIds[0], tasks[1]!.taskId), words[1]!, async (e) => {
      const v2 = await version({
        memoryId: v1.memoryId,
        version: 2,
        subject: brand,
        claim: `The brand ${c}'s main colour is blue, with off-white.`,
        value: 'blue with off-white',
        evidence: [
          { evidenceId: r0.evidenceId, role: 'ORIGIN' },
          { evidenceId: e, role: 'REFINE' },
        ],
        derivedFrom: [v1.versionId],
        cause: 'refined',
      });
      return {
        versions: [v2],
        supersessions: [
          { memoryId: v1.memoryId, versionId: v1.versionId, byVersionId: v2.versionId, reason: 'refined' },
        ],
      };
    });
    const v2 = r1.versions[0]!;
    const r2 = await extract(r1.state, message(tasks[2]!.messageIds[0], tasks[2]!.taskId), words[2]!, async (e) => ({
      versions: [
        await version({
          subject: `brand${c}.card.border`,
          claim: `Brand ${c}'s cards have a navy border.`,
          value: 'navy border',
          evidence: [{ evidenceId: e, role: 'ORIGIN' }],
          derivedFrom: [v2.versionId],
        }),
      ],
    }));
    const d1 = r2.versions[0]!;
    const r3 = await extract(r2.state, message(tasks[3]!.messageIds[0], tasks[3]!.taskId), words[3]!, async (e) => ({
      versions: [
        await version({
          subject: `brand${c}.page.footer`,
          claim: `Brand ${c}'s pages have a navy footer.`,
          value: 'navy footer',
          evidence: [{ evidenceId: e, role: 'ORIGIN' }],
          derivedFrom: [d1.versionId],
        }),
      ],
    }));
    const d2 = r3.versions[0]!;
    named = r3.state;
    // 6 episode summaries, 4 of them on the forgotten message and d1 (stateFor's shape).
    const summaries: string[] = [];
    const summaryCommands: MemoryCommand[] = [];
    for (let i = 0; i < 6; i += 1) {
      const summaryId = prng.uuid();
      const onIt = i < 4;
      const filler = fillers[20 * clusterCount + i]!;
      summaryCommands.push({
        type: 'WriteEpisodeSummary',
        summaryId,
        taskId: onIt ? tasks[i]!.taskId : prng.uuid(),
        text: await blobs.put(
          `In task ${summaryId.slice(0, 8)} the person settled:\n- ${onIt ? `Brand ${c}'s cards have a navy border.\n- ` : ''}option ${i}`,
          'text/plain',
        ),
        evidenceIds: onIt ? [r0.evidenceId] : [],
        // A summary on the forgotten message also names a memory that stays: it is rebuilt from that.
        memoryVersionIds: onIt
          ? [d1.versionId, fillers[20 * clusterCount + 40 + 4 * c + i]!.versionId]
          : [filler.versionId],
      });
      if (onIt) summaries.push(summaryId);
    }
    named = await decide(named, summaryCommands);
    clusters.push({
      forgotten: r0.evidenceId,
      v1: v1.versionId,
      v2: v2.versionId,
      d1: d1.versionId,
      d2: d2.versionId,
      confirmed: confirmed.map((v) => v.versionId),
      summaries,
      tasks: tasks.map((t) => t.taskId),
    });
  }
  const listed = [
    ...clusters.flatMap((c) => [c.v2, c.d2]),
    ...fillers.slice(20 * clusterCount, 20 * clusterCount + 30).map((v) => v.versionId),
  ];
  await decide(named, [
    {
      type: 'PublishProfile',
      version: 1,
      text: await blobs.put(listed.map((id) => `- ${id}`).join('\n'), 'text/plain'),
      memoryVersionIds: listed,
      reason: 'memories_changed',
    },
  ]);
  await flush();
  return {
    dir,
    store,
    blobs,
    search,
    catalog,
    indexer,
    clusters,
    events,
    close: async () => {
      search.close();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What a run must show, so the timing cannot pass on a no-op. */
function check(report: ForgettingReport | null, cluster: Cluster, blobGone: (hash: string) => boolean): string {
  if (report === null) throw new Error('the cascade returned no report');
  const purged = new Set(report.purgedVersionIds);
  for (const id of [cluster.v1, cluster.v2])
    if (!purged.has(id)) throw new Error(`v1/v2 ${id} not purged: ${JSON.stringify(report.purgedVersionIds)}`);
  if (report.profileVersion === null) throw new Error('no new profile version');
  const invalidated = new Set(report.summariesInvalidated);
  if (cluster.summaries.filter((s) => invalidated.has(s)).length < 3)
    throw new Error(`fewer than 3 summaries invalidated: ${report.summariesInvalidated.length}`);
  if (report.summariesRebuilt.length < 3)
    throw new Error(`fewer than 3 summaries rebuilt: ${report.summariesRebuilt.length}`);
  if (report.blobsDeleted.length === 0 || !report.blobsDeleted.every(blobGone))
    throw new Error('blobs named by the report are still in the store');
  const detached = report.detached.filter((d) => cluster.confirmed.includes(d.versionId)).length;
  if (detached !== 20) throw new Error(`expected 20 CONFIRM links detached, saw ${detached}`);
  if (report.excluded.length === 0) throw new Error('no task exclusion');
  return (
    `purged ${report.purgedVersionIds.length} (v1, v2${purged.has(cluster.d1) ? ', d1' : ''}${purged.has(cluster.d2) ? ', d2' : ''}), ` +
    `re-extracted ${report.reextractedVersionIds.length}, detached ${report.detached.length}, ` +
    `profile v${report.profileVersion}, summaries invalidated ${report.summariesInvalidated.length} / rebuilt ${report.summariesRebuilt.length}, ` +
    `blobs deleted ${report.blobsDeleted.length}, index entries ${report.indexEntriesDeleted.length}, tasks excluded ${report.excluded.length}`
  );
}

export interface CascadeTiming {
  medianMs: number | null;
  /** The first run, in a runner that had not folded the person's stream yet (a restarted worker). */
  firstRunMs: number | null;
  /** The process's CPU time (user + system) per run, median: what the run costs without waiting on the machine. */
  cpuMedianMs: number | null;
  times: number[];
  /**
   * The person's request and confirmation through the API's command handlers (what
   * `forgetMemory` and `confirmForgetting` wait for): the first request folds the whole stream,
   * the later ones only what is new since the process's last command on it.
   */
  api: { firstRequestMs: number | null; requestMedianMs: number | null; confirmMedianMs: number | null };
  note: string;
}

/**
 * The forget cascade end to end (libs/memory/src/worker/run-forgetting.ts) on a real runtime's
 * stores at `count` memories: per run, the person requests and confirms forgetting one cluster's
 * message through the decider (not timed), then `runForgetting` is timed from the confirmed state
 * to ForgettingCompleted (fold, pre-extract, plan, store the new texts, ApplyForgetting, delete
 * blobs, sync the recall index, exclude in the tasks, CompleteForgetting). Each run forgets another
 * cluster of the same shape. The runner is the memory worker's (offline extractor, the SQLite
 * recall index with the concept embedder); the index is built before, as the worker does at start.
 * The first run is reported apart (the runner folds the whole stream once); the median is over
 * the `runs` after it, with the runner's fold cached as in a worker that has seen the person.
 */
export async function forgetCascadeTiming(prng: Prng, runs = 5, count = 10_000): Promise<CascadeTiming> {
  const t0 = performance.now();
  const seeded = await seed(prng, count, runs + 1);
  const seedMs = performance.now() - t0;
  try {
    const runner = new MemoryRunner({
      store: seeded.store,
      blobs: seeded.blobs,
      extractor: new OfflineMemoryExtractor(),
      indexer: seeded.indexer,
      clock: { now: () => new Date('2026-06-01T00:00:00.000Z') },
      ids: { uuid: prng.uuid },
      logger: createLogger({ level: 'warn', name: 'forget-bench' }),
    });
    const owner = { workspaceId: WORKSPACE, userId: USER };
    // The worker's start: the recall index rebuilt from the memory stream (not timed).
    const t1 = performance.now();
    {
      const events = await seeded.store.readStream(streams.memory(WORKSPACE, USER));
      const state = foldMemory(
        memoryDecider.initialState(),
        events.map((e) => ({ type: e.type, data: e.data }) as MemoryEvent),
      );
      await seeded.indexer.syncPerson(owner, state);
    }
    const indexMs = performance.now() - t1;
    const times: number[] = [];
    const cpuTimes: number[] = [];
    const requests: number[] = [];
    const confirms: number[] = [];
    const folds = new MemoryStreamCache(seeded.store, MEMORY_COMMAND_FOLDS_KEPT);
    const api = {
      request: new RequestMemoryForgettingHandler(seeded.store, { uuid: prng.uuid }, folds),
      confirm: new ConfirmMemoryForgettingHandler(seeded.store, { uuid: prng.uuid }, folds),
    };
    let firstRunMs: number | null = null;
    let summary = '';
    for (const [i, cluster] of seeded.clusters.entries()) {
      const forgettingId = prng.uuid();
      const r0 = performance.now();
      const asked = await api.request.execute(
        new RequestMemoryForgetting(owner, forgettingId, { kind: 'evidence', evidenceIds: [cluster.forgotten] }),
      );
      const r1 = performance.now();
      const confirmed = await api.confirm.execute(new ConfirmMemoryForgetting(owner, forgettingId));
      const r2 = performance.now();
      if (asked.forgetting.status !== 'requested' || confirmed.forgetting.status !== 'confirmed')
        throw new Error(`forgetting ${forgettingId} is ${confirmed.forgetting.status} after request and confirm`);
      requests.push(r1 - r0);
      confirms.push(r2 - r1);
      const cpu0 = process.cpuUsage();
      const start = performance.now();
      const report = await runner.forgettingConfirmed(WORKSPACE, USER, forgettingId);
      const ms = performance.now() - start;
      const cpu = process.cpuUsage(cpu0);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const gone = new Set<string>();
      for (const hash of report?.blobsDeleted ?? []) if ((await seeded.blobs.get(hash)) === undefined) gone.add(hash);
      summary = check(report, cluster, (h) => gone.has(h));
      if (i === 0) firstRunMs = ms;
      else {
        times.push(ms);
        cpuTimes.push(cpuMs);
      }
      if (process.env.BENCH_FORGET_VERBOSE)
        console.log(`    run ${i}: ${ms.toFixed(1)} ms (cpu ${cpuMs.toFixed(1)} ms) — ${summary}`);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return {
      medianMs: median(times),
      cpuMedianMs: median(cpuTimes),
      firstRunMs,
      times,
      api: {
        firstRequestMs: requests[0] ?? null,
        requestMedianMs: median(requests.slice(1)),
        confirmMedianMs: median(confirms),
      },
      note:
        `runForgetting end to end on SQLite events (${seeded.events} memory events), filesystem blobs and the SQLite recall index; ` +
        `median of ${runs} runs after a first one; each run: ${summary}; seeded in ${(seedMs / 1000).toFixed(1)} s, indexed in ${(indexMs / 1000).toFixed(1)} s (not timed)`,
    };
  } catch (error) {
    return {
      medianMs: null,
      firstRunMs: null,
      cpuMedianMs: null,
      times: [],
      api: { firstRequestMs: null, requestMedianMs: null, confirmMedianMs: null },
      note: `the cascade failed: ${(error as Error).stack}`,
    };
  } finally {
    await seeded.close();
  }
}
