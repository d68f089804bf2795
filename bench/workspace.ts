/**
 * `npm run bench:workspace`: sequential edits of the shared workspace, each through the command
 * service (ArtifactCommandService, what WorkspaceModule binds to ARTIFACT_COMMANDS) and so each
 * in its own SQLite append transaction, on the embedded stores.
 *
 * - Events: SqliteEventStore (WAL) with the README's synchronous mode: LOMO_SQLITE_SYNCHRONOUS,
 *   FULL by default, so every edit's commit is an fsync.
 * - Document text: the embedded default, a SqliteBlobStore table inside the event-store file
 *   (synchronous=NORMAL: its rows become durable with the event's FULL commit right after them;
 *   libs/workspace/README.md). A short run with the FilesystemBlobStore and with a SqliteBlobStore
 *   of its own file (FULL) is printed beside it: the figures behind that choice.
 * - Document: ≥ 20 KB markdown (400 lines, each with a token), 10 000 snippet edits, each
 *   replacing one line's token, with the base version of the previous result (one writer).
 * - Flow: 200 nodes in a chain, 10 000 single-node edits round the nodes, each naming its base
 *   node version.
 * - Caching: the service keeps each stream folded between edits (allowed by the issue), so an
 *   edit reads nothing back; the text of the latest version stays in its LRU.
 * - Figures: edits/s per window of 1 000 edits, median over the windows (the first window is a
 *   warm-up and not counted), p50/p99 per edit.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { FilesystemBlobStore, SqliteBlobStore, type BlobStore } from '@lomo/blobs';
import { SqliteEventStore } from '@lomo/eventstore';
import { ArtifactCommandService, DocumentTextStore } from '@lomo/workspace';
import { measureNoticeFanout } from './workspace-fanout';

const EDITS = Number(process.env.BENCH_WORKSPACE_EDITS ?? 10_000);
const WINDOW = 1_000;
const COMPARE_EDITS = 1_000;
const LINES = 400;
const NODES = 200;
const synchronous = process.env.LOMO_SQLITE_SYNCHRONOUS === 'NORMAL' ? 'NORMAL' : 'FULL';

const person = { kind: 'person' as const, userId: 'u1' };
const meta = { workspaceId: 'bench', correlationId: 'bench', actor: { kind: 'user' as const, userId: 'u1' } };

type TextStoreKind = 'sqlite-in-event-file' | 'sqlite-own-file' | 'filesystem';

interface Rig {
  service: ArtifactCommandService;
  close(): Promise<void>;
}

function openRig(dir: string, kind: TextStoreKind): Rig {
  mkdirSync(dir, { recursive: true });
  const filename = join(dir, 'events.sqlite');
  const store = new SqliteEventStore({ filename, synchronous });
  let sqliteBlobs: SqliteBlobStore | undefined;
  let textBlobs: BlobStore;
  if (kind === 'filesystem') textBlobs = new FilesystemBlobStore(join(dir, 'text-blobs'));
  else {
    sqliteBlobs =
      kind === 'sqlite-in-event-file'
        ? new SqliteBlobStore({ filename, synchronous: 'NORMAL' })
        : new SqliteBlobStore({ filename: join(dir, 'blobs.sqlite'), synchronous });
    textBlobs = sqliteBlobs;
  }
  const service = new ArtifactCommandService({
    store,
    texts: new DocumentTextStore(textBlobs),
    media: new FilesystemBlobStore(join(dir, 'media')),
    ids: { uuid: () => randomUUID() },
  });
  return {
    service,
    close: async () => {
      await store.close();
      sqliteBlobs?.close();
    },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!;
};
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};

interface Run {
  perSecond: number[];
  latencies: number[];
  total: number;
  seconds: number;
}

async function timed(count: number, edit: (i: number) => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  const perSecond: number[] = [];
  const start = performance.now();
  let windowStart = start;
  for (let i = 0; i < count; i += 1) {
    const t = performance.now();
    await edit(i);
    const now = performance.now();
    latencies.push(now - t);
    if ((i + 1) % WINDOW === 0) {
      perSecond.push(WINDOW / ((now - windowStart) / 1000));
      windowStart = now;
    }
  }
  return { perSecond, latencies, total: count, seconds: (performance.now() - start) / 1000 };
}

/** The ≥ 20 KB document: 400 lines, line k holding the token `[k:g]` for its g-th edit. */
const documentText = () =>
  Array.from(
    { length: LINES },
    (_, k) => `Scene ${k}: the camera holds on the harbour while the light changes, gulls cross the frame [${k}:0]`,
  ).join('\n');

async function documentEdits(rig: Rig, count: number): Promise<Run & { bytes: number }> {
  const artifactId = randomUUID();
  const text = documentText();
  const created = await rig.service.create(
    { artifactId, kind: 'document', title: 'Storyboard', by: person, content: { type: 'document', text } },
    meta,
  );
  let version = created.version;
  const generation = new Array<number>(LINES).fill(0);
  const run = await timed(count, async (i) => {
    const k = i % LINES;
    const old = `[${k}:${generation[k]}]`;
    generation[k] += 1;
    const result = await rig.service.editDocument(
      { artifactId, baseVersion: version, edits: [{ old, new: `[${k}:${generation[k]}]` }], by: person },
      meta,
    );
    version = result.version;
  });
  if (version !== count + 1) throw new Error(`document ended at version ${version}, expected ${count + 1}`);
  return { ...run, bytes: Buffer.byteLength(text) };
}

async function flowEdits(rig: Rig, count: number): Promise<Run> {
  const artifactId = randomUUID();
  const nodes = Array.from({ length: NODES }, (_, i) => ({
    nodeId: `n${i}`,
    kind: 'image.generate',
    params: { prompt: `shot ${i}`, seed: i },
  }));
  const edges = nodes.slice(1).map((n, i) => ({ edgeId: `e${i}`, from: `n${i}`, to: n.nodeId }));
  const created = await rig.service.create(
    { artifactId, kind: 'flow', title: 'Trailer', by: person, content: { type: 'flow', nodes, edges } },
    meta,
  );
  let version = created.version;
  const nodeVersions = new Array<number>(NODES).fill(1);
  const run = await timed(count, async (i) => {
    const n = i % NODES;
    const result = await rig.service.editFlowNodes(
      {
        artifactId,
        baseVersion: version,
        edits: [
          { nodeId: `n${n}`, baseNodeVersion: nodeVersions[n], params: { prompt: `shot ${n} take ${i}`, seed: i } },
        ],
        by: person,
      },
      meta,
    );
    version = result.version;
    nodeVersions[n] = result.nodeVersions?.[`n${n}`] ?? nodeVersions[n] + 1;
  });
  if (version !== count + 1) throw new Error(`flow ended at version ${version}, expected ${count + 1}`);
  return run;
}

/**
 * The floor under any edit: plain better-sqlite3 single-row inserts, one commit each, with the
 * event store's pragmas (WAL, the same synchronous mode), measured beside the edits because the
 * machine's fsync rate moves with whatever else runs on it.
 */
function plainInsertsPerSecond(dir: string, count = 1_000): number {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, 'plain.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, data TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (data) VALUES (?)');
  const start = performance.now();
  for (let i = 0; i < count; i += 1) insert.run(`{"nodeId":"n${i % NODES}","params":{"prompt":"take ${i}"}}`);
  const perSecond = count / ((performance.now() - start) / 1000);
  db.close();
  return Math.round(perSecond);
}

const summary = (run: Run) => {
  const counted = run.perSecond.length > 1 ? run.perSecond.slice(1) : run.perSecond;
  return {
    median: Math.round(median(counted)),
    overall: Math.round(run.total / run.seconds),
    p50: Math.round(median(run.latencies) * 1000) / 1000,
    p99: Math.round(percentile(run.latencies, 0.99) * 1000) / 1000,
  };
};

/**
 * The change-notice fan-out (bench/workspace-fanout.ts, runnable alone too),
 * from one edit's append until the 100th task's ArtifactChangeNoticed
 * is visible in the open-notices read model: median milliseconds.
 */
async function noticeFanoutMs100Tasks(): Promise<number | null> {
  return (await measureNoticeFanout()).median_ms;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'lomo-bench-workspace-'));
  const wall = performance.now();
  try {
    console.log(`workspace bench: SQLite WAL synchronous=${synchronous}, ${EDITS} edits each, one writer`);
    console.log(`document text stores, ${COMPARE_EDITS} snippet edits each (edits/s, median per ${WINDOW} / overall):`);
    for (const kind of ['filesystem', 'sqlite-own-file'] as const) {
      const rig = openRig(join(root, kind), kind);
      try {
        const s = summary(await documentEdits(rig, COMPARE_EDITS));
        console.log(`  ${kind.padEnd(22)} ${s.overall} edits/s, p50 ${s.p50} ms, p99 ${s.p99} ms`);
      } finally {
        await rig.close();
      }
    }
    const rig = openRig(join(root, 'default'), 'sqlite-in-event-file');
    try {
      const baselineBefore = plainInsertsPerSecond(join(root, 'plain-1'));
      const doc = await documentEdits(rig, EDITS);
      const d = summary(doc);
      console.log(
        `document (${doc.bytes} bytes, text in the event-store file): median ${d.median} edits/s (overall ${d.overall}), p50 ${d.p50} ms, p99 ${d.p99} ms, windows ${doc.perSecond.map(Math.round).join(' ')}`,
      );
      const baselineBetween = plainInsertsPerSecond(join(root, 'plain-2'));
      const flow = await flowEdits(rig, EDITS);
      const baselineAfter = plainInsertsPerSecond(join(root, 'plain-3'));
      const f = summary(flow);
      console.log(
        `flow (${NODES} nodes): median ${f.median} edits/s (overall ${f.overall}), p50 ${f.p50} ms, p99 ${f.p99} ms, windows ${flow.perSecond.map(Math.round).join(' ')}`,
      );
      console.log(
        `baseline, plain single-row inserts with the same pragmas: ${baselineBefore} / ${baselineBetween} / ${baselineAfter} per s (before / between / after)`,
      );
      const fanout = await noticeFanoutMs100Tasks();
      console.log(
        `notice fan-out to 100 tasks: ${fanout === null ? 'not measured yet (hook in bench/workspace.ts)' : `${fanout} ms`}`,
      );
      console.log(
        `targets: document ≥ 2 000 edits/s: ${d.median >= 2_000}; flow ≥ 2 000 edits/s: ${f.median >= 2_000}; fan-out < 50 ms: ${fanout === null ? 'n/a' : fanout < 50}`,
      );
      console.log(`wall time ${((performance.now() - wall) / 1000).toFixed(1)} s`);
      console.log(
        JSON.stringify({
          document_edits_per_s: d.median,
          flow_node_edits_per_s: f.median,
          notice_fanout_ms_100_tasks: fanout,
        }),
      );
    } finally {
      await rig.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
