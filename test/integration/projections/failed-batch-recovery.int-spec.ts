import {
  DocumentStoreUnavailableError,
  physicalCollection,
  tasksProjection,
  type ChangeNotice,
  type ConditionalWrite,
  type DocumentInput,
  type WriteOptions,
} from '@lomo/read-models';
import { ids, writeMultiTaskScenario } from './support/multi-task-scenario';
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

describe('a batch that fails half-way is redone completely on redelivery', () => {
  let fixture: EventStoreFixture;
  let rebuilt: Snapshot;

  beforeAll(async () => {
    fixture = openEventStore();
    await writeMultiTaskScenario(fixture.events);
    const clean = await cleanRebuild(fixture.events);
    rebuilt = clean.snapshot;
    await clean.documents.close();
  });

  afterAll(() => fixture.dispose());

  it('a document write failing (store unavailable) leaves nothing marked applied; the redelivered batch applies it all', async () => {
    const documents = memoryDocuments();
    const upsert = documents.upsert.bind(documents);
    let failures = 0;
    documents.upsert = async (collection: string, document: DocumentInput, options?: WriteOptions) => {
      // The fifth task-document write fails once, in the middle of a batch.
      if (collection === physicalCollection(tasksProjection) && ++failures === 5)
        throw new DocumentStoreUnavailableError('disk gone for a moment');
      return upsert(collection, document, options);
    };
    // A batch of several documents goes through upsertMany: the same fifth write fails there, after
    // the writes before it in the call were applied (the port promises no atomicity across writes).
    const upsertMany = documents.upsertMany.bind(documents);
    documents.upsertMany = async (collection: string, writes: readonly ConditionalWrite[]) => {
      if (collection !== physicalCollection(tasksProjection)) return upsertMany(collection, writes);
      const failsAt = failures < 5 && failures + writes.length >= 5 ? 5 - failures - 1 : -1;
      failures += writes.length;
      if (failsAt === -1) return upsertMany(collection, writes);
      await upsertMany(collection, writes.slice(0, failsAt));
      throw new DocumentStoreUnavailableError('disk gone for a moment');
    };
    const live = new LiveInstance(documents, fixture.events);
    const log = await fixture.events.readAll();
    const batchesOf = (size: number) =>
      Array.from({ length: Math.ceil(log.length / size) }, (_, i) => log.slice(i * size, (i + 1) * size));
    let failed = 0;
    for (const batch of batchesOf(7)) {
      try {
        await live.deliver(batch);
      } catch (error) {
        expect(error).toBeInstanceOf(DocumentStoreUnavailableError);
        failed += 1;
        await live.deliver(batch); // the bus redelivers the same messages
      }
    }
    expect(failed).toBe(1);
    expect(await snapshotOf(documents, physicalOf())).toEqual(rebuilt);
    await documents.close();
  });

  it('a change notice that could not be published is published again when the batch is redelivered', async () => {
    const documents = memoryDocuments();
    const published: ChangeNotice[] = [];
    let fail = true;
    const sink = {
      publish: async (notices: readonly ChangeNotice[]) => {
        if (fail && notices.some((n) => n.documentId === ids.taskB)) {
          fail = false;
          throw new Error('bus unavailable');
        }
        published.push(...notices);
      },
    };
    const live = new LiveInstance(documents, fixture.events, sink);
    const log = await fixture.events.readAll();
    for (const event of log) {
      await live.deliver([event]).catch(() => live.deliver([event]));
    }
    expect(fail).toBe(false);
    // The task's document was written before the failed publish; the redelivery found it applied
    // and announced it anyway, so no subscriber misses the change.
    expect(published.filter((n) => n.projection === 'tasks' && n.documentId === ids.taskB).at(0)?.streams).toEqual({
      [`task-${ids.taskB}`]: 0,
    });
    expect(await snapshotOf(documents, physicalOf())).toEqual(rebuilt);
    await documents.close();
  });
});
