import { streams, type NewEvent } from '@lomo/contracts';
import { silentLogger } from '@lomo/observability';
import {
  ALIASES_COLLECTION,
  eraseProjectionType,
  ProjectionAliases,
  ProjectionRunner,
  ReadModels,
  SqliteDocumentStore,
  tasksProjection,
  type ProjectionDefinition,
  type TaskDocument,
} from '@lomo/read-models';
import { ids, writeMultiTaskScenario } from './support/multi-task-scenario';
import { memoryDocuments, openEventStore, type EventStoreFixture } from './support/projection-harness';

/** The next version of `tasks`: a new field, so its documents have another shape. */
type TaskDocumentV2 = TaskDocument & { headline: string | null };
const current = `tasks_v${tasksProjection.version}`;
const next = `tasks_v${tasksProjection.version + 1}`;
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

describe('version bump: a projection whose version changes is rebuilt into a fresh collection and switched by its alias', () => {
  let fixture: EventStoreFixture;

  beforeAll(async () => {
    fixture = openEventStore();
    await writeMultiTaskScenario(fixture.events);
  });

  afterAll(() => fixture.dispose());

  it('tasks vN -> vN+1: rebuilt into a fresh collection from the log, the alias switches, the old one is dropped, readers see the new shape and live events land in the new one', async () => {
    const documents = memoryDocuments();
    // Readers that never cache the alias, so they see the switch the moment it happens.
    const readers = new ReadModels(documents, new ProjectionAliases(documents, { cacheTtlMs: 0 }));
    const runner = (definition: ProjectionDefinition<TaskDocument> | ProjectionDefinition<TaskDocumentV2>) =>
      new ProjectionRunner({
        documents,
        events: fixture.events,
        projections: [eraseProjectionType(definition)],
        logger: silentLogger,
        dropRetiredAfterMs: 0,
      });

    const v1 = runner(tasksProjection);
    await v1.start();
    await v1.ready();
    await v1.stop();
    expect(await documents.get(ALIASES_COLLECTION, 'tasks')).toMatchObject({
      collection: current,
      version: tasksProjection.version,
    });
    const before = await readers.getTask('ws1', ids.taskA);
    expect(before).toMatchObject({ goal: 'Spring fair poster', status: 'stopped' });
    expect(before).not.toHaveProperty('headline');

    const v2 = runner(tasksV2);
    await v2.start();
    expect(v2.status()[0].state).not.toBe('live'); // rebuilding in the background
    await v2.ready();
    const taskAndTurnEvents = (await fixture.events.readAll()).filter((e) => !e.metadata.streamId.startsWith('main-'));
    expect(v2.status()[0]).toMatchObject({
      state: 'live',
      collection: next,
      rebuiltEvents: taskAndTurnEvents.length,
    });
    expect(await documents.get(ALIASES_COLLECTION, 'tasks')).toMatchObject({
      collection: next,
      version: tasksProjection.version + 1,
      retired: [current],
      rebuild: null,
    });
    expect((await documents.listCollections()).filter((c) => c.startsWith('tasks'))).toEqual([next, `${next}_streams`]);

    const after = await readers.getTask('ws1', ids.taskA);
    expect(after).toMatchObject({
      headline: 'Spring fair poster (persistent)',
      status: 'stopped',
      counts: { inboxPending: 1, inboxClaimed: 1, inboxWithdrawn: 1, turns: 2, steps: 2 },
    });
    expect((await readers.listTasks('ws1', { first: 10 })).items.map((t) => t._id)).toEqual([
      ids.taskC,
      ids.taskA,
      ids.taskB,
    ]);

    // A live event after the switch lands in the new collection.
    const [upgrade]: NewEvent[] = [
      {
        eventId: 'abababab-0000-4000-8000-000000000001',
        type: 'TaskUpgraded',
        data: { from: 'lightweight', to: 'persistent', reason: 'grew' },
        metadata: { correlationId: 'c', causationId: null, workspaceId: 'ws1', actor: { kind: 'agent' } },
      },
    ];
    await fixture.events.append(streams.task(ids.taskB), [upgrade], 'stream_exists');
    await v2.apply(await fixture.events.readStream(streams.task(ids.taskB), { fromRevision: 'end' }));
    expect(await readers.getTask('ws1', ids.taskB)).toMatchObject({
      kind: 'persistent',
      headline: 'Summarize notes (persistent)',
    });
    await v2.stop();

    // A restart with the same version starts live on the switched collection: no second rebuild.
    const again = runner(tasksV2);
    await again.start();
    expect(again.status()[0]).toMatchObject({ state: 'live', rebuiltEvents: 0 });
    await again.stop();
    await documents.close();
  });

  it('two instances starting v2 at once: one rebuilds under the lease, the other waits for the switch, then both are live', async () => {
    const file = `${fixture.dir}/lease-read-models.sqlite`;
    const stores = [new SqliteDocumentStore({ filename: file }), new SqliteDocumentStore({ filename: file })];
    const runners = stores.map(
      (documents, i) =>
        new ProjectionRunner({
          documents,
          events: fixture.events,
          projections: [eraseProjectionType(tasksV2)],
          logger: silentLogger,
          instanceId: `instance-${i}`,
          rebuildWaitPollMs: 10,
          dropRetiredAfterMs: 0,
        }),
    );
    await Promise.all(runners.map((r) => r.start()));
    await Promise.all(runners.map((r) => r.ready()));
    const statuses = runners.map((r) => r.status()[0]);
    expect(statuses.map((s) => s.state)).toEqual(['live', 'live']);
    expect(statuses.filter((s) => s.rebuiltEvents > 0)).toHaveLength(1);
    expect(await stores[0].get(ALIASES_COLLECTION, 'tasks')).toMatchObject({ collection: next, rebuild: null });
    expect(await new ReadModels(stores[1], runners[1].aliases).getTask('ws1', ids.taskA)).toMatchObject({
      headline: 'Spring fair poster (persistent)',
    });
    for (const runner of runners) await runner.stop();
    for (const store of stores) await store.close();
  });
});
