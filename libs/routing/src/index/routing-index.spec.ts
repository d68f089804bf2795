import { randomUUID } from 'node:crypto';
import { streams, type NewEvent } from '@lomo/contracts';
import { createSqliteHarness, sampleMetadata, type EventStoreHarness } from '@lomo/eventstore/testing';
import { silentLogger } from '@lomo/observability';
import { eraseProjectionType, ProjectionRunner, type DocumentStore } from '@lomo/read-models';
import { createSqliteDocumentStoreHarness } from '@lomo/read-models/testing';
import { HashingEmbeddingProvider } from '@lomo/llm';
import { InMemorySearchIndex } from '../testing';
import { DocumentStoreRoutingIndex } from './document-store-routing-index';
import { FORGOTTEN_GOAL, ROUTING_INDEX_PROJECTION, routingIndexProjection } from './routing-index.projection';
import { SearchIndexFeeder } from './search-index-feeder';

const event = (type: string, data: Record<string, unknown>): NewEvent =>
  ({ eventId: randomUUID(), type, data, metadata: sampleMetadata() }) as NewEvent;
const created = (taskId: string, goal: string) =>
  event('TaskCreated', { taskId, kind: 'lightweight', goal, language: 'en', originMessageId: randomUUID() });

describe('routing_index projection and its search index feed', () => {
  let events: EventStoreHarness;
  let docs: { store: DocumentStore; dispose(): Promise<void> };
  let runner: ProjectionRunner;
  let search: InMemorySearchIndex;
  let index: DocumentStoreRoutingIndex;
  let feeder: SearchIndexFeeder;
  const revisions = new Map<string, number>();

  async function append(taskId: string, ...batch: NewEvent[]) {
    const streamId = streams.task(taskId);
    const result = await events.store.append(streamId, batch, revisions.get(streamId) ?? 'no_stream');
    revisions.set(streamId, result.nextExpectedRevision);
    const fromRevision = result.nextExpectedRevision - batch.length + 1;
    await runner.apply(await events.store.readStream(streamId, { fromRevision }));
  }

  beforeEach(async () => {
    // A clock that ticks a second per append, so "most recent" never depends on the wall clock.
    let tick = Date.UTC(2026, 0, 1);
    events = await createSqliteHarness({ now: () => new Date((tick += 1000)) });
    docs = await createSqliteDocumentStoreHarness();
    search = new InMemorySearchIndex({ dimensions: 256 });
    feeder = new SearchIndexFeeder({
      documents: docs.store,
      search,
      embedder: new HashingEmbeddingProvider({ dimensions: 256 }),
    });
    runner = new ProjectionRunner({
      documents: docs.store,
      events: events.store,
      projections: [eraseProjectionType(routingIndexProjection)],
      logger: silentLogger,
      notices: feeder,
    });
    await runner.start();
    await runner.ready();
    index = new DocumentStoreRoutingIndex(docs.store, () => runner.aliases.collectionOf(ROUTING_INDEX_PROJECTION));
    revisions.clear();
  });

  afterEach(async () => {
    await runner.stop();
    await docs.dispose();
    await events.dispose();
  });

  it('keeps goal, summary, kind, status and last activity, and feeds goal + summary to the search index', async () => {
    const a = randomUUID();
    await append(a, created(a, 'Design festival posters'));
    await append(a, event('TaskUpgraded', { from: 'lightweight', to: 'persistent', reason: 'kept revising' }));
    await append(a, event('TaskSummaryUpdated', { summary: 'three drafts, warm palette', by: { kind: 'agent' } }));

    const [doc] = await index.get('ws1', [a]);
    expect(doc).toMatchObject({
      taskId: a,
      goal: 'Design festival posters',
      summary: 'three drafts, warm palette',
      kind: 'persistent',
      status: 'active',
      mergedInto: null,
    });
    expect(await search.searchText('ws1', 'palette', { limit: 5 })).toEqual([expect.objectContaining({ id: a })]);
  });

  it('a forgotten first message takes the goal out of the index and its search entry; a forgetting is not activity', async () => {
    const a = randomUUID();
    const origin = randomUUID();
    await append(
      a,
      event('TaskCreated', {
        taskId: a,
        kind: 'persistent',
        goal: 'Cobalt harbour posters',
        language: 'en',
        originMessageId: origin,
      }),
    );
    expect(await search.searchText('ws1', 'cobalt', { limit: 5 })).toEqual([expect.objectContaining({ id: a })]);
    const before = (await index.get('ws1', [a]))[0]!.lastActiveAt;
    // Another message's exclusion leaves the goal alone.
    await append(a, event('ContextExcluded', { forgettingId: randomUUID(), messageIds: [randomUUID()], steps: [] }));
    expect((await index.get('ws1', [a]))[0]!.goal).toBe('Cobalt harbour posters');
    await append(a, event('ContextExcluded', { forgettingId: randomUUID(), messageIds: [origin], steps: [] }));
    const [doc] = await index.get('ws1', [a]);
    expect(doc).toMatchObject({ goal: FORGOTTEN_GOAL, lastActiveAt: before });
    expect(await search.searchText('ws1', 'cobalt', { limit: 5 })).toEqual([]);
  });

  it("an operator's fork is no routing candidate: not listed, not searchable, its source still is", async () => {
    const source = randomUUID();
    const fork = randomUUID();
    await append(source, created(source, 'Lighthouse poster series'));
    await append(
      fork,
      created(fork, 'Lighthouse poster series'),
      event('ForkedFrom', { sourceTaskId: source, sourceRevision: 0, sourcePosition: '1', turns: [], by: 'ops' }),
    );
    expect((await index.recentActive('ws1', 10)).map((d) => d.taskId)).toEqual([source]);
    expect((await index.recent('ws1', 10)).map((d) => d.taskId)).toEqual([source]);
    expect((await search.searchText('ws1', 'lighthouse', { limit: 5 })).map((h) => h.id)).toEqual([source]);
  });

  it('a change notice records the artefact ref but is not activity: a person editing an artefact does not make its readers recent', async () => {
    const a = randomUUID();
    const b = randomUUID();
    const artifactId = randomUUID();
    await append(a, created(a, 'poster one'));
    await append(b, created(b, 'poster two'));
    const before = (await index.get('ws1', [a]))[0]!.lastActiveAt;
    const noticeId = randomUUID();
    const by = { kind: 'person', userId: 'u1' };
    await append(
      a,
      event('ArtifactChangeNoticed', {
        noticeId,
        artifactId,
        fromVersion: 1,
        toVersion: 2,
        by,
        nodes: [],
        summary: '',
      }),
      event('ArtifactChangeNoticeWidened', { noticeId, toVersion: 3, by, nodes: [], summary: '' }),
    );
    const [doc] = await index.get('ws1', [a]);
    expect(doc).toMatchObject({ artifactRefs: [artifactId], lastActiveAt: before });
    expect((await index.recent('ws1', 2)).map((d) => d.taskId)).toEqual([b, a]);
  });

  it('archived and merged tasks leave the search index and the recent list, and stay out of it', async () => {
    const a = randomUUID();
    const b = randomUUID();
    const c = randomUUID();
    await append(a, created(a, 'poster one'));
    await append(b, created(b, 'poster two'));
    await append(c, created(c, 'poster three'));
    await append(a, event('TaskArchived', { by: { kind: 'agent' } }));
    await append(
      b,
      event('TasksMerged', { sourceTaskId: b, targetTaskId: c, role: 'source', movedItemIds: [], by: 'u1' }),
    );

    expect((await search.searchText('ws1', 'poster', { limit: 10 })).map((h) => h.id)).toEqual([c]);
    expect((await index.recent('ws1', 10)).map((d) => d.taskId)).toEqual([c]);
    expect((await index.get('ws1', [b]))[0]).toMatchObject({ mergedInto: c });
  });

  it('recentActive holds active, waiting and paused tasks, newest activity first', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await append(a, created(a, 'first'));
    await append(b, created(b, 'second'));
    await append(c, created(c, 'third'));
    await append(b, event('TaskCompleted', {}));
    await append(a, event('TaskPaused', { by: { kind: 'user', userId: 'u1' } }));

    expect((await index.recentActive('ws1', 10)).map((d) => d.taskId)).toEqual([a, c]);
    expect((await index.recent('ws1', 10)).map((d) => d.taskId)).toEqual([a, b, c]);
    expect(await index.recent('other-ws', 10)).toEqual([]);
  });

  it('a resync after a rebuild refills the search index from the collection alone', async () => {
    const a = randomUUID();
    await append(a, created(a, 'cat logo'));
    await search.clear();
    const collection = await runner.aliases.collectionOf(ROUTING_INDEX_PROJECTION);

    expect(await feeder.resync(collection!)).toBe(1);
    expect((await search.searchText('ws1', 'logo', { limit: 5 })).map((h) => h.id)).toEqual([a]);
  });
});
