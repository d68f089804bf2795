/**
 * Change-notice fan-out benchmark (`node -r ./scripts/register.cjs bench/workspace-fanout.ts`;
 * also imported by bench/workspace.ts for its `notice_fanout_ms_100_tasks` figure). Figures, not
 * a timed test. Embedded stores as `npm start` runs them: the SQLite event store (WAL, the README's
 * `synchronous=FULL` unless LOMO_SQLITE_SYNCHRONOUS says otherwise), SQLite read models, and a
 * ProjectionRunner with every production projection (first slice, routing_index, workspace) fed
 * by tailing the store, with the notice fan-out in its change-notice path exactly as
 * ProjectorModule wires it.
 *
 * Each run: 100 tasks have read a fresh document at v1 (their recorded tool calls: ToolCallCompleted
 * with `artifact: {artifactId, version}`), the projector has caught up; then the person's edit is
 * appended and the clock runs until the open-notices read model (`workspace_notices`) shows the
 * 100th open notice of that document. BENCH_FANOUT_RUNS runs (default 7) after one warm-up;
 * the median is the figure. Target: under 50 ms. BENCH_FANOUT_ONLY_WORKSPACE=1 runs the workspace
 * projections alone (to tell the fan-out's cost from the other read models' per-event cost).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StoreProjectionFeed } from '@lomo/application';
import { SqliteEventStore, type SynchronousMode } from '@lomo/eventstore';
import { silentLogger } from '@lomo/observability';
import {
  eraseProjectionType,
  physicalCollection,
  ProjectionRunner,
  readModelProjections,
  SqliteDocumentStore,
  type AnyProjection,
} from '@lomo/read-models';
import { routingIndexProjection } from '@lomo/routing';
import {
  DocumentStoreWorkspaceReadModel,
  EventStoreTaskNoticeWriter,
  NoticeFanout,
  NoticeFanoutSink,
  noticeDocumentId,
  noticeIdFor,
  workspaceNoticesProjection,
  type NoticeDocument,
  type TaskNoticeWriter,
  workspaceProjections,
} from '@lomo/workspace';
import { ArtifactEventWriter, ToolCallRecorder, createTask } from '@lomo/workspace/testing';

const WS = 'ws_bench';
const TASKS = 100;
const person = { kind: 'person' as const, userId: 'u1' };

export interface FanoutFigure {
  median_ms: number;
  samples: number[];
}

/** When the run's first and last notice append finished (stderr shows them: appends vs projecting). */
const marks: { first?: number; last?: number } = {};
function timed(inner: TaskNoticeWriter): TaskNoticeWriter {
  return {
    notice: async (workspaceId, taskId, command) => {
      marks.first ??= performance.now();
      await inner.notice(workspaceId, taskId, command);
      marks.last = performance.now();
    },
  };
}

export async function measureNoticeFanout(
  options: { runs?: number; tasks?: number; synchronous?: SynchronousMode } = {},
): Promise<FanoutFigure> {
  const runs = options.runs ?? Number(process.env.BENCH_FANOUT_RUNS ?? 7);
  const tasks = options.tasks ?? TASKS;
  const synchronous =
    options.synchronous ?? (process.env.LOMO_SQLITE_SYNCHRONOUS as SynchronousMode | undefined) ?? 'FULL';
  const dir = mkdtempSync(join(tmpdir(), 'lomo-bench-fanout-'));
  const events = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous });
  const documents = new SqliteDocumentStore({ filename: join(dir, 'read-models.sqlite') });
  const projections: AnyProjection[] =
    process.env.BENCH_FANOUT_ONLY_WORKSPACE === '1'
      ? [...workspaceProjections]
      : [...readModelProjections, eraseProjectionType(routingIndexProjection), ...workspaceProjections];
  const holder: { runner?: ProjectionRunner } = {};
  const collectionOf = (name: string) => holder.runner?.aliases.collectionOf(name) ?? Promise.resolve(undefined);
  const fanout = new NoticeFanout({
    documents,
    workspace: new DocumentStoreWorkspaceReadModel(documents, collectionOf),
    writer: timed(new EventStoreTaskNoticeWriter(events)),
    logger: silentLogger,
  });
  const runner = new ProjectionRunner({
    documents,
    events,
    projections,
    notices: new NoticeFanoutSink(fanout),
    logger: silentLogger,
  });
  holder.runner = runner;
  const feed = new StoreProjectionFeed({ events, runner, projections, logger: silentLogger });
  try {
    const artifacts = new ArtifactEventWriter(events, WS);
    const calls = new ToolCallRecorder(events, WS);
    const taskIds: string[] = [];
    for (let i = 0; i < tasks; i += 1) taskIds.push(await createTask(events, WS, `Bench task ${i}`));
    // One fresh document per run (and the warm-up), read at v1 by every task.
    const docs: string[] = [];
    for (let r = 0; r <= runs; r += 1) {
      const doc = await artifacts.createDocument({ by: person, title: `Bench storyboard ${r}` });
      for (const taskId of taskIds) await calls.read(taskId, doc, 1);
      docs.push(doc);
    }
    await runner.start();
    await runner.ready();
    await feed.start();
    const notices = physicalCollection(workspaceNoticesProjection);
    // The notice ids are known in advance (derived from task, artefact and version), so the check
    // reads exactly the 100 documents by id: cheap enough not to slow down what it measures.
    const openOf = async (artifactId: string) => {
      const ids = taskIds.map((t) => noticeDocumentId(t, noticeIdFor(t, artifactId, 2)));
      const last = await documents.get<NoticeDocument>(notices, ids.at(-1)!);
      if (last?.open !== true) return 0;
      return (await documents.getMany<NoticeDocument>(notices, ids)).filter((d) => d.open).length;
    };

    const samples: number[] = [];
    for (const [r, doc] of docs.entries()) {
      const started = performance.now();
      marks.first = undefined;
      await artifacts.editDocument(doc, person, '1 snippet, +12 −3 chars');
      await new Promise<void>((resolve, reject) => {
        let checking = false;
        const check = () => {
          if (checking) return;
          checking = true;
          openOf(doc)
            .then((n) => {
              checking = false;
              if (n < tasks) return;
              clearInterval(timer);
              resolve();
            })
            .catch(reject);
        };
        // Looked at every millisecond (after each applied batch would double the projector's work).
        const timer = setInterval(check, 1);
        check();
      });
      const ms = performance.now() - started;
      if (r > 0) samples.push(Number(ms.toFixed(2)));
      process.stderr.write(
        `run ${r}${r === 0 ? ' (warm-up)' : ''}: ${ms.toFixed(1)} ms (first append at ${((marks.first ?? 0) - started).toFixed(1)}, last at ${((marks.last ?? 0) - started).toFixed(1)})\n`,
      );
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const median =
      sorted.length % 2 === 1
        ? sorted[(sorted.length - 1) / 2]!
        : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
    return { median_ms: Number(median.toFixed(2)), samples };
  } finally {
    await feed.stop();
    await runner.stop();
    await documents.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  measureNoticeFanout().then(
    (figure) => {
      process.stdout.write(
        `${JSON.stringify({ notice_fanout_ms_100_tasks: figure.median_ms, samples_ms: figure.samples })}\n`,
      );
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
