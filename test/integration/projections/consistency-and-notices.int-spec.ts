import { streams, type EventEnvelope } from '@lomo/contracts';
import { silentLogger } from '@lomo/observability';
import {
  ConsistencyTimeoutError,
  decodeConsistencyToken,
  encodeConsistencyToken,
  InvalidConsistencyTokenError,
  mainLineProjection,
  physicalCollection,
  ProjectionRunner,
  ReadModelConsistency,
  ReadModels,
  readModelProjections,
  tasksProjection,
  type ChangeNotice,
} from '@lomo/read-models';
import { ids, T0, writeMultiTaskScenario } from './support/multi-task-scenario';
import { memoryDocuments, openEventStore, type EventStoreFixture } from './support/projection-harness';

describe('consistency tokens, change notices, scoped reads and lag', () => {
  let fixture: EventStoreFixture;
  const notices: ChangeNotice[] = [];
  const documents = memoryDocuments();
  let runner: ProjectionRunner;
  let consistency: ReadModelConsistency;
  let reads: ReadModels;
  let log: EventEnvelope[];
  // Scenario time: the store's clock gives the 61 events T0 .. T0 + 60 s.
  const now = { ms: T0 + 100_000 };

  beforeAll(async () => {
    fixture = openEventStore();
    runner = new ProjectionRunner({
      documents,
      events: fixture.events,
      projections: readModelProjections,
      logger: silentLogger,
      notices: { publish: async (batch) => void notices.push(...batch) },
      now: () => new Date(now.ms),
    });
    await runner.start();
    await runner.ready();
    consistency = new ReadModelConsistency(documents, runner.aliases, readModelProjections);
    reads = new ReadModels(documents, runner.aliases);
    await writeMultiTaskScenario(fixture.events);
    log = await fixture.events.readAll();
  });

  afterAll(async () => {
    await runner.stop();
    await documents.close();
    await fixture.dispose();
  });

  const token = [
    { streamId: streams.task(ids.taskA), revision: 11 },
    { streamId: streams.main('ws1', 'u1'), revision: 16 },
  ];

  it('a token is pending until every projection reading its streams applied it; waiting is bounded with a typed error', async () => {
    expect(await consistency.pending(token)).toEqual(token);
    await expect(consistency.waitFor(token, { timeoutMs: 30, pollMs: 5 })).rejects.toBeInstanceOf(
      ConsistencyTimeoutError,
    );

    // Half the log: task A's stream is not at revision 11 yet.
    await runner.apply(log.slice(0, 30));
    expect((await consistency.pending(token)).map((p) => p.streamId)).toContain(streams.task(ids.taskA));

    const waiting = consistency.waitFor(token, { timeoutMs: 2_000, pollMs: 5, workspaceId: 'ws1' });
    await runner.apply(log.slice(30));
    await expect(waiting).resolves.toBeUndefined();
    expect(await consistency.pending(token, 'ws1')).toEqual([]);
  });

  it('a token naming a stream of another workspace is refused; a malformed one too', async () => {
    const foreign = [{ streamId: streams.task(ids.taskD), revision: 0 }];
    await expect(consistency.pending(foreign, 'ws1')).rejects.toBeInstanceOf(InvalidConsistencyTokenError);
    expect(decodeConsistencyToken(encodeConsistencyToken(token))).toEqual(token);
    for (const bad of [
      '',
      'not-a-token',
      Buffer.from('[["nope",1]]').toString('base64url'),
      Buffer.from('[["task-x",-1]]').toString('base64url'),
    ]) {
      expect(() => decodeConsistencyToken(bad)).toThrow(InvalidConsistencyTokenError);
    }
  });

  it('every written document is announced with its projection, collection, workspace and stream revisions', () => {
    const lastOf = (projection: string, documentId: string) =>
      notices.filter((n) => n.projection === projection && n.documentId === documentId).at(-1);
    expect(lastOf('tasks', ids.taskA)).toEqual({
      projection: 'tasks',
      collection: physicalCollection(tasksProjection),
      documentId: ids.taskA,
      workspaceId: 'ws1',
      streams: { [streams.task(ids.taskA)]: 11, [streams.turn(ids.turn1)]: 8, [streams.turn(ids.turn2)]: 2 },
    });
    // Main stream ids keep their "." in notices (documents store them encoded).
    expect(lastOf('main_line', ids.m8)).toEqual({
      projection: 'main_line',
      collection: physicalCollection(mainLineProjection),
      documentId: ids.m8,
      workspaceId: 'ws2',
      streams: { [streams.main('ws2', 'u2')]: 1 },
    });
  });

  it('reads are scoped by workspace, ordered by last activity and paginated', async () => {
    expect(await reads.getTask('ws2', ids.taskA)).toBeUndefined();
    expect(await reads.getTurn('ws2', ids.turn1)).toBeUndefined();
    expect((await reads.getTask('ws1', ids.taskA))?.status).toBe('stopped');
    const first = await reads.listTasks('ws1', { first: 2 });
    expect(first.items.map((t) => t._id)).toEqual([ids.taskC, ids.taskA]);
    expect(first.hasMore).toBe(true);
    const next = await reads.listTasks('ws1', { first: 2, after: first.endCursor });
    expect(next.items.map((t) => t._id)).toEqual([ids.taskB]);
    expect((await reads.listTasks('ws1', { first: 10, status: 'stopped' })).items.map((t) => t._id)).toEqual([
      ids.taskA,
    ]);
    expect((await reads.listTasks('ws1', { first: 10, kind: 'lightweight' })).items.map((t) => t._id)).toEqual([
      ids.taskB,
    ]);
    expect((await reads.listTasks('ws2', { first: 10 })).items.map((t) => t._id)).toEqual([ids.taskD]);
    expect((await reads.inboxOfTask('ws1', ids.taskA, { first: 10 })).items.map((i) => [i.itemId, i.status])).toEqual([
      [ids.m1, 'claimed'],
      [ids.m2, 'released'],
      [ids.m3, 'withdrawn'],
    ]);
    expect((await reads.turnsOfTask('ws1', ids.taskA, { first: 10 })).items.map((t) => t._id)).toEqual([
      ids.turn2,
      ids.turn1,
    ]);
    expect((await reads.mainLine('ws1', 'u1', { first: 3 })).items.map((m) => m._id)).toEqual([ids.m7, ids.m6, ids.m5]);
    expect(await reads.getMessage('ws1', ids.m1)).toMatchObject({ routing: { outcome: 'new', taskId: ids.taskA } });
  });

  it('a sweep measures what the feeds had not delivered (events and seconds), applies it, and reports healthy again', async () => {
    await fixture.events.append(
      streams.task(ids.taskC),
      [
        {
          eventId: 'cdcdcdcd-0000-4000-8000-000000000001',
          type: 'TaskResumed',
          data: { by: { kind: 'user', userId: 'u1' } },
          metadata: {
            correlationId: 'c',
            causationId: null,
            workspaceId: 'ws1',
            actor: { kind: 'user', userId: 'u1' },
          },
        },
      ],
      'stream_exists',
    );
    const [resumed] = await fixture.events.readStream(streams.task(ids.taskC), { fromRevision: 'end' });
    now.ms = Date.parse(resumed.metadata.occurredAt) + 90_000;
    await runner.sweep();
    const tasks = runner.status().find((s) => s.name === 'tasks');
    // Every task-stream projection (the main line's card items too) was one event behind, for 90 s.
    expect(tasks).toMatchObject({ state: 'live', lagEvents: 1, lagSeconds: 90 });
    expect(runner.health()).toMatchObject({
      healthy: false,
      reasons: ['main_line: 90.0 s behind', 'tasks: 90.0 s behind', 'inbox_items: 90.0 s behind'],
    });
    expect((await reads.getTask('ws1', ids.taskC))?.status).toBe('active');

    await runner.sweep();
    expect(runner.health().healthy).toBe(true);
    expect(runner.status().every((s) => s.lagEvents === 0 && s.lagSeconds === 0)).toBe(true);
  });
});

describe('a consistency wait in the projector’s own process', () => {
  it('checks again as soon as the runner applied a batch, not at its next poll; other processes are still polled', async () => {
    const fixture = openEventStore();
    const documents = memoryDocuments();
    const runner = new ProjectionRunner({
      documents,
      events: fixture.events,
      projections: readModelProjections,
      logger: silentLogger,
    });
    try {
      await runner.start();
      await runner.ready();
      await writeMultiTaskScenario(fixture.events);
      const log = await fixture.events.readAll();
      const token = [{ streamId: streams.task(ids.taskA), revision: 11 }];
      const signalled = new ReadModelConsistency(documents, runner.aliases, readModelProjections, runner);
      const polling = new ReadModelConsistency(documents, runner.aliases, readModelProjections);

      // A poll a minute apart: only the runner's signal can end the first wait in time.
      const started = Date.now();
      const woken = signalled.waitFor(token, { timeoutMs: 30_000, pollMs: 60_000 });
      const polled = polling.waitFor(token, { timeoutMs: 30_000, pollMs: 20 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await runner.apply(log);
      await expect(woken).resolves.toBeUndefined();
      expect(Date.now() - started).toBeLessThan(5_000);
      await expect(polled).resolves.toBeUndefined();

      // A listener runs once per applied batch, and not after it unsubscribed.
      const listener = jest.fn();
      const unsubscribe = runner.onApplied(listener);
      await runner.apply(log.slice(0, 1));
      expect(listener).toHaveBeenCalledTimes(1);
      unsubscribe();
      await runner.apply(log.slice(0, 1));
      expect(listener).toHaveBeenCalledTimes(1);
    } finally {
      await runner.stop();
      await documents.close();
      await fixture.dispose();
    }
  });
});
