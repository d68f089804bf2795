import fc from 'fast-check';
import { streams, type EventEnvelope } from '@lomo/contracts';
import { silentLogger } from '@lomo/observability';
import {
  physicalCollection,
  readModelProjections,
  rebuildCollections,
  SqliteDocumentStore,
  TurnTaskLookup,
  inboxItemDocumentId,
} from '@lomo/read-models';
import { correctionIds, writeCorrectionsScenario } from './support/corrections-scenario';
import { ids, call, writeMultiTaskScenario } from './support/multi-task-scenario';
import {
  cleanRebuild,
  LiveInstance,
  memoryDocuments,
  openEventStore,
  physicalOf,
  snapshotOf,
  type EventStoreFixture,
  type Snapshot,
} from './support/projection-harness';
import { batches, interleave, redeliveryArbitrary } from './support/redelivery';

const key = (streamId: string) => streamId.replaceAll('.', '~');
/** How many of the four projections read the event's stream category. */
const readersOf = (event: EventEnvelope) =>
  readModelProjections.filter((p) => p.categories.some((c) => event.metadata.streamId.startsWith(`${c}-`))).length;

describe('rebuild equality: redelivered, reordered events give exactly the documents of a clean rebuild', () => {
  let fixture: EventStoreFixture;
  let log: EventEnvelope[];
  let rebuilt: Snapshot;
  const occurredAt = (streamId: string, revision: number) =>
    log.find((e) => e.metadata.streamId === streamId && e.metadata.revision === revision)?.metadata.occurredAt;

  beforeAll(async () => {
    fixture = openEventStore();
    await writeCorrectionsScenario(await writeMultiTaskScenario(fixture.events));
    log = await fixture.events.readAll();
    const clean = await cleanRebuild(fixture.events);
    rebuilt = clean.snapshot;
    await clean.documents.close();
  });

  afterAll(() => fixture.dispose());

  it('a clean rebuild holds the scenario’s expected field values', () => {
    const { tasks, turns, inbox_items: inbox, main_line: mainLine } = rebuilt;
    // 61 of the multi-task scenario, 19 of the corrections.
    expect(log).toHaveLength(80);

    expect(tasks[ids.taskA]).toMatchObject({
      workspaceId: 'ws1',
      created: true,
      goal: 'Spring fair poster',
      kind: 'persistent',
      status: 'stopped',
      language: 'en',
      originMessageId: ids.m1,
      createdAt: occurredAt(streams.task(ids.taskA), 0),
      activeTurnId: null,
      activeTurn: null,
      counts: { inboxPending: 1, inboxClaimed: 1, inboxWithdrawn: 1, turns: 2, steps: 2 },
      turnActivity: {
        [ids.turn1]: { status: 'completed', steps: 2, lastActivityAt: occurredAt(streams.turn(ids.turn1), 8) },
        [ids.turn2]: { status: 'cancelled', steps: 0, lastActivityAt: occurredAt(streams.turn(ids.turn2), 2) },
      },
      // The stop is the task's last event and later than any turn event.
      lastActivityAt: occurredAt(streams.task(ids.taskA), 11),
      _streams: {
        [key(streams.task(ids.taskA))]: 11,
        [key(streams.turn(ids.turn1))]: 8,
        [key(streams.turn(ids.turn2))]: 2,
      },
    });
    expect(tasks[ids.taskB]).toMatchObject({
      kind: 'lightweight',
      status: 'completed',
      counts: { inboxPending: 0, inboxClaimed: 1, inboxWithdrawn: 0, turns: 1, steps: 1 },
    });
    // Task C: m5 moved to E, then merged into E (taking the unread m11 along): archived with a pointer.
    expect(tasks[ids.taskC]).toMatchObject({
      status: 'archived',
      summary: 'Waiting for travel dates',
      mergedInto: correctionIds.taskE,
      counts: { inboxPending: 0, inboxMoved: 2, turns: 0, steps: 0 },
    });
    expect(tasks[correctionIds.taskE]).toMatchObject({
      kind: 'persistent',
      status: 'active',
      summary: null,
      mergedInto: null,
      counts: { inboxPending: 3, inboxMoved: 0 },
    });
    expect(tasks[ids.taskD]).toMatchObject({
      workspaceId: 'ws2',
      status: 'active',
      kind: 'lightweight',
      goal: 'Haiku',
    });

    expect(turns[ids.turn1]).toMatchObject({
      taskId: ids.taskA,
      status: 'completed',
      generation: 1,
      lease: null,
      summary: 'layout drafted',
      steps: [
        {
          step: 1,
          reply: 'Drafting the layout and exporting a proof.',
          callIds: [call(ids.turn1, 1, 0), call(ids.turn1, 1, 1)],
          consumedItemIds: [ids.m1],
        },
        { step: 2, reply: 'The export may not have run; here is the layout.', callIds: [], consumedItemIds: [] },
      ],
      calls: {
        [call(ids.turn1, 1, 0)]: {
          tool: 'notes.write',
          status: 'completed',
          outcome: 'ok',
          result: { noteId: 'n1' },
          attempts: 1,
        },
        [call(ids.turn1, 1, 1)]: {
          tool: 'export.pdf',
          status: 'unknown',
          outcome: null,
          result: null,
          unknownReason: 'started_without_result_not_idempotent',
        },
      },
    });
    expect(turns[ids.turn2]).toMatchObject({
      status: 'cancelled',
      cancelled: { by: { kind: 'user', userId: 'u1' }, reason: 'task_stopped' },
      steps: [],
      lease: null,
    });
    expect(turns[ids.turn3]).toMatchObject({
      generation: 2,
      status: 'completed',
      calls: {
        [call(ids.turn3, 1, 0)]: {
          status: 'completed',
          outcome: 'error',
          error: { code: 'NOTES_EMPTY', message: 'No notes yet', retriable: false },
        },
      },
    });

    expect(inbox[inboxItemDocumentId(ids.taskA, ids.m1)]).toMatchObject({
      taskId: ids.taskA,
      status: 'claimed',
      claimedAt: { turnId: ids.turn1, step: 1 },
      consumedAt: { turnId: ids.turn1, step: 1 },
    });
    expect(inbox[inboxItemDocumentId(ids.taskA, ids.m2)]).toMatchObject({
      status: 'released',
      claimedAt: null,
      consumedAt: null,
      text: 'Make it blue',
    });
    expect(inbox[inboxItemDocumentId(ids.taskA, ids.m3)]).toMatchObject({ status: 'withdrawn', withdrawnBy: 'u1' });
    expect(inbox[inboxItemDocumentId(ids.taskB, ids.m4)]).toMatchObject({
      taskId: ids.taskB,
      status: 'claimed',
      consumedAt: { turnId: ids.turn3, step: 1 },
    });
    // m5 left C unread and arrived in E with where it came from; m11 went along with the merge.
    expect(inbox[inboxItemDocumentId(ids.taskC, ids.m5)]).toMatchObject({
      status: 'moved',
      movedTo: { taskId: correctionIds.taskE, consumed: false },
    });
    expect(inbox[inboxItemDocumentId(correctionIds.taskE, ids.m5)]).toMatchObject({
      itemId: ids.m5,
      taskId: correctionIds.taskE,
      status: 'delivered',
      movedFrom: { taskId: ids.taskC, consumedThere: false, note: expect.stringContaining(ids.taskC) },
    });
    expect(inbox[inboxItemDocumentId(ids.taskC, correctionIds.m11)]).toMatchObject({
      status: 'moved',
      movedTo: { taskId: correctionIds.taskE, consumed: false },
    });
    expect(inbox[inboxItemDocumentId(correctionIds.taskE, correctionIds.m11)]).toMatchObject({
      status: 'delivered',
      movedFrom: { taskId: ids.taskC, consumedThere: false },
    });
    expect(inbox[inboxItemDocumentId(ids.taskD, ids.m8)]).toMatchObject({ workspaceId: 'ws2', status: 'delivered' });

    // The line's items; each created task also has its card item (`kind` null until a card opens,
    // readers skip it): the scenario's tasks open no card.
    const items = Object.values(mainLine).filter((d) => (d as unknown as { kind: string | null }).kind !== null);
    expect(items).toHaveLength(11);
    expect(Object.keys(mainLine)).toHaveLength(16);
    expect(mainLine[ids.m1]).toMatchObject({
      kind: 'message',
      userId: 'u1',
      seq: 0,
      text: 'Design a poster for the spring fair',
      routing: { outcome: 'new', taskId: ids.taskA, method: 'semantic' },
      card: { cardId: ids.cardA, taskId: ids.taskA, title: 'Spring fair poster', status: 'active' },
    });
    expect(mainLine[ids.m6]).toMatchObject({
      routing: { outcome: 'clarify', taskId: null },
      clarification: {
        cardId: ids.m6Card,
        question: 'Which task do you mean?',
        options: [
          { optionId: 'o1', label: 'Spring fair poster', action: 'route', taskId: ids.taskA },
          { optionId: 'o2', label: 'Lisbon trip', action: 'route', taskId: ids.taskC },
        ],
        reason: 'ambiguous',
        language: 'en',
        answered: { optionId: 'o2', text: null, answerMessageId: correctionIds.m11 },
      },
    });
    expect(mainLine[correctionIds.m11]).toMatchObject({
      channel: 'card',
      answersCardId: ids.m6Card,
      routing: { outcome: 'existing', taskId: ids.taskC, reason: 'card answer', answersCardId: ids.m6Card },
    });
    expect(mainLine[correctionIds.m10]).toMatchObject({
      routing: { outcome: 'main', taskId: null },
      reply: { replyId: correctionIds.reply9, text: 'Hello! What shall we make?' },
    });
    expect(mainLine[ids.m7]).toMatchObject({
      routing: { outcome: 'main' },
      reply: { replyId: ids.reply7, text: 'You are welcome.' },
    });
    expect(mainLine[ids.m8]).toMatchObject({ workspaceId: 'ws2', userId: 'u2', channel: 'api' });
  });

  it('events redelivered one to three times, streams interleaved at random (per-stream order kept), give documents deep-equal to the clean rebuild', async () => {
    await fc.assert(
      fc.asyncProperty(redeliveryArbitrary(log.length), async (plan) => {
        const documents = memoryDocuments();
        try {
          const live = new LiveInstance(documents, fixture.events);
          for (const batch of batches(interleave(log, plan), plan.batchSizes)) await live.deliver(batch);
          expect(await snapshotOf(documents, physicalOf())).toEqual(rebuilt);
          // Every extra copy was recognised as such by each projection reading its stream.
          const extraCopies = log.reduce((sum, e, i) => sum + (plan.copies[i] - 1) * readersOf(e), 0);
          expect(live.totals.duplicates).toBe(extraCopies);
          expect(live.totals.applied).toBe(log.reduce((sum, e) => sum + readersOf(e), 0));
        } finally {
          await documents.close();
        }
      }),
      { numRuns: 25 },
    );
  });

  it('three projector instances applying deliveries at the same time (two the same, one another interleaving) lose none of each other’s updates', async () => {
    const file = `${fixture.dir}/shared-read-models.sqlite`;
    const [first, second] = fc.sample(redeliveryArbitrary(log.length), { numRuns: 2, seed: 7 });
    const stores = [0, 1, 2].map(() => new SqliteDocumentStore({ filename: file }));
    try {
      const [a, b, c] = stores.map((store) => new LiveInstance(store, fixture.events));
      const run = async (instance: LiveInstance, deliveries: EventEnvelope[]) => {
        for (const event of deliveries) await instance.deliver([event]);
      };
      // a and b as two consumers that both got the same partition during a rebalance.
      await Promise.all([
        run(a, interleave(log, first)),
        run(b, interleave(log, first)),
        run(c, interleave(log, second)),
      ]);
      expect(await snapshotOf(stores[0], physicalOf())).toEqual(rebuilt);
      // They really raced on the same documents; the losers re-read and redid (or dropped) their writes.
      expect(a.totals.conflicts + b.totals.conflicts + c.totals.conflicts).toBeGreaterThan(0);
    } finally {
      for (const store of stores) await store.close();
    }
  });

  it('a rebuild that keeps almost nothing in memory (batches of 3, no document cached between batches, a write per dirty document) gives the same documents', async () => {
    const documents = memoryDocuments();
    try {
      const result = await rebuildCollections(
        readModelProjections.map((definition) => ({ definition, physical: physicalCollection(definition) })),
        {
          documents,
          events: fixture.events,
          context: new TurnTaskLookup(fixture.events),
          logger: silentLogger,
          batchSize: 3,
          tuning: { cachedDocuments: 0, flushAfterDocuments: 1 },
        },
      );
      expect(result.events).toBe(log.length);
      expect(await snapshotOf(documents, physicalOf())).toEqual(rebuilt);
    } finally {
      await documents.close();
    }
  });
});
