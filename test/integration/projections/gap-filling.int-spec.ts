import { streams, type EventEnvelope } from '@lomo/contracts';
import {
  inboxItemDocumentId,
  physicalCollection,
  readModelProjections,
  type InboxItemDocument,
  type TaskDocument,
} from '@lomo/read-models';
import { ScenarioWriter } from './support/scenario-writer';
import { LiveInstance, memoryDocuments, openEventStore, type EventStoreFixture } from './support/projection-harness';

const task = 'abcdabcd-0000-4000-8000-000000000001';
const turn = 'abcdabcd-1111-4000-8000-000000000001';
const m = (n: number) => `abcdabcd-2222-4000-8000-00000000000${n}`;

describe('gap filling: a later revision delivered first makes the engine read the missing ones from the store', () => {
  let fixture: EventStoreFixture;
  let taskEvents: EventEnvelope[];

  beforeAll(async () => {
    fixture = openEventStore();
    const w = new ScenarioWriter(fixture.events, 'ws1', 'u1');
    await w.task(task, {
      type: 'CreateTask',
      taskId: task,
      kind: 'persistent',
      goal: 'Gaps',
      language: 'en',
      originMessageId: m(1),
    });
    for (const n of [1, 2, 3])
      await w.task(task, { type: 'DeliverMessage', itemId: m(n), text: `message ${n}`, language: 'en' });
    await w.task(task, { type: 'WithdrawInboxItem', itemId: m(3), by: 'u1' });
    await w.task(task, { type: 'OpenTurn', turnId: turn, reason: 'message' });
    taskEvents = await fixture.events.readStream(streams.task(task));
  });

  afterAll(() => fixture.dispose());

  it('delivering revision 5 before 3 and 4 applies 3, 4 and 5 in order, and the late 3 and 4 are duplicates', async () => {
    expect(taskEvents.map((e) => [e.metadata.revision, e.type])).toEqual([
      [0, 'TaskCreated'],
      [1, 'MessageDeliveredToInbox'],
      [2, 'MessageDeliveredToInbox'],
      [3, 'MessageDeliveredToInbox'],
      [4, 'InboxItemWithdrawn'],
      [5, 'TurnOpened'],
    ]);
    const reads: Array<{ streamId: string; fromRevision: unknown; maxCount: unknown }> = [];
    const events = {
      readStream: (streamId: string, options: { fromRevision?: number | 'start' | 'end'; maxCount?: number } = {}) => {
        reads.push({ streamId, fromRevision: options.fromRevision, maxCount: options.maxCount });
        return fixture.events.readStream(streamId, options);
      },
    };
    const documents = memoryDocuments();
    const live = new LiveInstance(documents, events);
    const [tasks, inbox] = ['tasks', 'inbox_items'].map((name) =>
      physicalCollection(readModelProjections.find((p) => p.name === name) as (typeof readModelProjections)[number]),
    );

    await live.deliver(taskEvents.slice(0, 3));
    await live.deliver([taskEvents[5]]);

    // Each projection reading task streams (tasks, inbox items, the main line's card items)
    // filled revisions 3-4 from the store, once each.
    expect(reads).toEqual([
      { streamId: streams.task(task), fromRevision: 3, maxCount: 2 },
      { streamId: streams.task(task), fromRevision: 3, maxCount: 2 },
      { streamId: streams.task(task), fromRevision: 3, maxCount: 2 },
    ]);
    const afterGap = await documents.get<TaskDocument>(tasks, task);
    expect(afterGap).toMatchObject({
      counts: { inboxPending: 2, inboxWithdrawn: 1 },
      activeTurnId: turn,
      _streams: { [streams.task(task)]: 5 },
    });
    // The withdrawal (revision 4) reached the inbox item after its delivery (revision 3).
    expect(await documents.get<InboxItemDocument>(inbox, inboxItemDocumentId(task, m(3)))).toMatchObject({
      status: 'withdrawn',
      text: 'message 3',
    });
    // Two missing events for each of the three projections.
    expect(live.totals.gapFilled).toBe(6);

    await live.deliver([taskEvents[3], taskEvents[4]]);
    expect(live.totals.duplicates).toBe(6);
    expect(await documents.get<TaskDocument>(tasks, task)).toEqual(afterGap);
    await documents.close();
  });
});
