import { join } from 'node:path';
import { silentLogger, type Logger } from '@lomo/observability';
import {
  ALIASES_COLLECTION,
  eraseProjectionType,
  ProjectionRunner,
  readModelProjections,
  SqliteDocumentStore,
  tasksProjection,
  ThreadedRebuildExecutor,
  type AnyProjection,
  type ProjectionDefinition,
  type TaskDocument,
} from '@lomo/read-models';
import { ids, writeMultiTaskScenario } from './support/multi-task-scenario';
import {
  cleanRebuild,
  openEventStore,
  physicalOf,
  snapshotOf,
  type EventStoreFixture,
  type Snapshot,
} from './support/projection-harness';

/** The next version of `tasks`, which a rebuild thread cannot load (not in readModelProjections). */
type TaskDocumentV2 = TaskDocument & { headline: string | null };
const tasksV2: ProjectionDefinition<TaskDocumentV2> = {
  ...tasksProjection,
  version: tasksProjection.version + 1,
  ownership: { ...tasksProjection.ownership, headline: { owner: 'stream', category: 'task' } },
  blank: (id, event) => ({ ...tasksProjection.blank(id, event), headline: null }),
  evolve: (task, event) => {
    const next = { ...task, ...tasksProjection.evolve(task, event) };
    return next.goal === null ? next : { ...next, headline: `${next.goal} (${next.kind})` };
  },
  derive: (task) => ({ ...task, ...(tasksProjection.derive as (t: TaskDocument) => TaskDocument)(task) }),
};

interface LogLine {
  level: string;
  context: Record<string, unknown>;
  message: string;
}

function capturingLogger(lines: LogLine[], bindings: Record<string, unknown> = {}): Logger {
  const at = (level: string) => (context: Record<string, unknown>, message: string) =>
    void lines.push({ level, context: { ...bindings, ...context }, message });
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => capturingLogger(lines, { ...bindings, ...more }),
  };
}

describe('rebuild on worker threads: each group of projections on its own thread gives the documents of a rebuild on one thread', () => {
  let fixture: EventStoreFixture;
  let eventsFile: string;
  let clean: Snapshot;
  let files = 0;

  beforeAll(async () => {
    fixture = openEventStore();
    eventsFile = join(fixture.dir, 'events.sqlite');
    await writeMultiTaskScenario(fixture.events);
    const rebuilt = await cleanRebuild(fixture.events);
    clean = rebuilt.snapshot;
    await rebuilt.documents.close();
  });

  afterAll(() => fixture.dispose());

  /** A fresh read-model file and a runner over it that rebuilds on threads. */
  function threadedRunner(options: {
    projections?: readonly AnyProjection[];
    logger?: Logger;
    threadDocumentsFile?: string;
    batchSize?: number;
    leaseMs?: number;
  }) {
    const filename = join(fixture.dir, `read-models-${(files += 1)}.sqlite`);
    const documents = new SqliteDocumentStore({ filename });
    const runner = new ProjectionRunner({
      documents,
      events: fixture.events,
      projections: options.projections ?? readModelProjections,
      logger: options.logger ?? silentLogger,
      dropRetiredAfterMs: 0,
      rebuildBatchSize: options.batchSize,
      rebuildLeaseMs: options.leaseMs,
      rebuildExecutor: new ThreadedRebuildExecutor({
        threads: 2,
        events: { filename: eventsFile },
        documents: { filename: options.threadDocumentsFile ?? filename },
        // The scenario is small; threads are worth it from 50 000 events on.
        minEvents: 0,
      }),
    });
    return { documents, runner, filename };
  }

  it('every read model rebuilt on two threads equals the one-thread rebuild, and goes live with its alias switched', async () => {
    const lines: LogLine[] = [];
    const { documents, runner } = threadedRunner({ logger: capturingLogger(lines), batchSize: 7 });
    try {
      await runner.start();
      await runner.ready();
      expect(await snapshotOf(documents, physicalOf())).toEqual(clean);
      // Each thread read the events of its group's categories: tasks and inbox_items task- and
      // turn- streams; main_line (main- and task- streams: a task's cards) and turns (turn-
      // streams) main-, task- and turn- streams.
      const log = await fixture.events.readAll();
      const eventsOf = (...categories: string[]) =>
        log.filter((e) => categories.some((c) => e.metadata.streamId.startsWith(`${c}-`))).length;
      const read: Record<string, number> = {
        tasks: eventsOf('task', 'turn'),
        inbox_items: eventsOf('task', 'turn'),
        main_line: eventsOf('main', 'task', 'turn'),
        turns: eventsOf('main', 'task', 'turn'),
      };
      expect(runner.status()).toEqual(
        readModelProjections.map((p) =>
          expect.objectContaining({ name: p.name, state: 'live', rebuiltEvents: read[p.name], error: null }),
        ),
      );
      for (const p of readModelProjections) {
        expect(await documents.get(ALIASES_COLLECTION, p.name)).toMatchObject({
          collection: `${p.name}_v${p.version}`,
          rebuild: null,
        });
      }
      // The threads' log lines reach this thread's logger.
      expect(lines.filter((l) => l.message === 'rebuilt from the event store')).toHaveLength(2);
      expect(lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    } finally {
      await runner.stop();
      await documents.close();
    }
  });

  it('a projection a thread cannot load is rebuilt on the calling thread, alongside the threads', async () => {
    const projections = [...readModelProjections.filter((p) => p.name !== 'tasks'), eraseProjectionType(tasksV2)];
    const { documents, runner } = threadedRunner({ projections });
    try {
      await runner.start();
      await runner.ready();
      const snapshot = await snapshotOf(documents, physicalOf(projections));
      const { tasks: _v1, ...others } = clean;
      expect(snapshot).toMatchObject(others);
      expect(Object.keys(snapshot.tasks).sort()).toEqual(Object.keys(clean.tasks).sort());
      expect(snapshot.tasks[ids.taskA]).toEqual({
        ...clean.tasks[ids.taskA],
        headline: 'Spring fair poster (persistent)',
      });
      expect(runner.status().every((s) => s.state === 'live')).toBe(true);
    } finally {
      await runner.stop();
      await documents.close();
    }
  });

  it('when no thread can start (its store does not open), the runner says so and rebuilds on its own thread', async () => {
    const lines: LogLine[] = [];
    const { documents, runner } = threadedRunner({
      logger: capturingLogger(lines),
      threadDocumentsFile: join(fixture.dir, 'no-such-directory', 'read-models.sqlite'),
    });
    try {
      await runner.start();
      await runner.ready();
      expect(await snapshotOf(documents, physicalOf())).toEqual(clean);
      const warnings = lines.filter((l) => l.message === 'no rebuild thread could start; rebuilding on this thread');
      // Both groups, in whichever order their threads failed.
      expect(warnings.map((w) => w.context.projections)).toHaveLength(2);
      expect(warnings.map((w) => w.context.projections)).toEqual(
        expect.arrayContaining([
          ['tasks', 'inbox_items'],
          ['main_line', 'turns'],
        ]),
      );
    } finally {
      await runner.stop();
      await documents.close();
    }
  });

  it('a stop interrupts the threads at their next batch, switching nothing; the next start rebuilds in full', async () => {
    const first = threadedRunner({ batchSize: 1, leaseMs: 50 });
    await first.runner.start();
    await first.runner.stop();
    await first.runner.ready();
    for (const p of readModelProjections) {
      expect(await first.documents.get(ALIASES_COLLECTION, p.name)).toMatchObject({ collection: null });
    }
    expect(first.runner.status().map((s) => s.state)).toEqual(readModelProjections.map(() => 'rebuilding'));
    await first.documents.close();

    // Another instance on the same file: the stopped one's lease has to run out first.
    const documents = new SqliteDocumentStore({ filename: first.filename });
    const second = new ProjectionRunner({
      documents,
      events: fixture.events,
      projections: readModelProjections,
      logger: silentLogger,
      dropRetiredAfterMs: 0,
      rebuildLeaseMs: 50,
      rebuildWaitPollMs: 20,
      instanceId: 'second',
      rebuildExecutor: new ThreadedRebuildExecutor({
        threads: 2,
        events: { filename: eventsFile },
        documents: { filename: first.filename },
        minEvents: 0,
      }),
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await second.start();
      await second.ready();
      expect(await snapshotOf(documents, physicalOf())).toEqual(clean);
    } finally {
      await second.stop();
      await documents.close();
    }
  });
});
