import { InMemoryBlobStore } from '@lomo/blobs/testing';
import { initialMemoryState, type MemoryState, type MemoryVersionState } from '@lomo/domain';
import { ConceptEmbeddingProvider } from '@lomo/llm';
import { InMemorySearchIndex } from '@lomo/routing/testing';
import { IndexedMemoryRecall } from './indexed-memory-recall';
import { MemoryIndexCatalog } from './memory-index-catalog';
import { MemoryIndexer } from './memory-indexer';
import { MemoryRecallTimeoutError } from './recall-errors';

const WS = 'ws1';
const ALICE = { workspaceId: WS, userId: 'alice' };
const BOB = { workspaceId: WS, userId: 'bob' };
const NOW = new Date('2026-06-01T00:00:00Z');
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String((seq += 1)).padStart(12, '0')}`;

async function setup() {
  const blobs = new InMemoryBlobStore();
  const embedder = new ConceptEmbeddingProvider();
  const index = new InMemorySearchIndex({ dimensions: embedder.dimensions });
  const catalog = new MemoryIndexCatalog();
  const clock = { now: () => NOW };
  const indexer = new MemoryIndexer({ index, embedder, blobs, catalog, clock });
  const recall = new IndexedMemoryRecall({ index, embedder, blobs, catalog, clock });
  const states = new Map<string, MemoryState>();
  const stateOf = (userId: string) => {
    let s = states.get(userId);
    if (!s) {
      s = initialMemoryState();
      states.set(userId, s);
    }
    return s as MemoryState & { versions: Record<string, MemoryVersionState> };
  };
  const add = async (
    userId: string,
    text: string,
    over: Partial<MemoryVersionState> = {},
  ): Promise<MemoryVersionState> => {
    const ref = await blobs.put(text, 'text/plain');
    const v: MemoryVersionState = {
      versionId: uuid(),
      memoryId: over.memoryId ?? uuid(),
      version: 1,
      subject: 'brand.colour.main',
      kind: 'fact',
      scope: { kind: 'long_term' },
      origin: 'explicit',
      text: ref,
      fingerprint: 'f'.repeat(64),
      validFrom: '2026-01-01T00:00:00.000Z',
      validTo: null,
      evidence: [],
      derivedFrom: [],
      cause: 'extracted',
      status: 'current',
      supersededBy: null,
      supersededReason: null,
      ...over,
    };
    stateOf(userId).versions[v.versionId] = v;
    return v;
  };
  const sync = async () => {
    for (const [userId, state] of states) await indexer.syncPerson({ workspaceId: WS, userId }, state);
  };
  const ask = (userId: string, text: string, extra: { taskId?: string; at?: string; signal?: AbortSignal } = {}) =>
    recall.recall({ workspaceId: WS, userId, taskId: extra.taskId ?? 'task-a', text, limit: 5, ...extra });
  return { blobs, indexer, catalog, add, sync, ask, stateOf };
}

describe('IndexedMemoryRecall', () => {
  it("recalls one person's memories only, even in a shared workspace", async () => {
    const t = await setup();
    await t.add('alice', 'Our brand main colour is teal');
    await t.add('bob', 'Our brand main colour is crimson');
    await t.sync();
    const alice = await t.ask('alice', 'which hue does the company use?');
    expect(alice.map((m) => m.text)).toEqual(['Our brand main colour is teal']);
    const bob = await t.ask('bob', 'which hue does the company use?');
    expect(bob.map((m) => m.text)).toEqual(['Our brand main colour is crimson']);
    expect(await t.ask('carol', 'which hue does the company use?')).toEqual([]);
  });

  it('recalls a task-local memory only in its task', async () => {
    const t = await setup();
    await t.add('alice', 'This poster should try saturated red', { scope: { kind: 'task', taskId: 'task-a' } });
    await t.sync();
    expect(await t.ask('alice', 'poster colour', { taskId: 'task-a' })).toHaveLength(1);
    expect(await t.ask('alice', 'poster colour', { taskId: 'task-b' })).toEqual([]);
  });

  it('recalls the current version of a refined memory, never the superseded one', async () => {
    const t = await setup();
    const v1 = await t.add('alice', 'Our brand main colour is blue');
    const v2 = await t.add('alice', 'Our brand main colour is blue with off-white, softer overall', {
      memoryId: v1.memoryId,
      version: 2,
      validFrom: '2026-02-01T00:00:00.000Z',
      cause: 'refined',
    });
    Object.assign(v1, { status: 'superseded', supersededBy: v2.versionId, supersededReason: 'refined' });
    await t.sync();
    const recalled = await t.ask('alice', 'what is the brand colour blue');
    expect(recalled.map((m) => m.versionId)).toEqual([v2.versionId]);
  });

  it('answers a temporal question with the version valid at that time', async () => {
    const t = await setup();
    const v1 = await t.add('alice', 'The brand main colour is blue', { validTo: '2026-03-01T00:00:00.000Z' });
    const v2 = await t.add('alice', 'The brand main colour is green', {
      memoryId: v1.memoryId,
      version: 2,
      validFrom: '2026-03-01T00:00:00.000Z',
      cause: 'corrected',
    });
    Object.assign(v1, { status: 'superseded', supersededBy: v2.versionId, supersededReason: 'corrected' });
    await t.sync();
    const q = 'brand main colour';
    expect((await t.ask('alice', q, { at: '2026-02-01T00:00:00.000Z' })).map((m) => m.versionId)).toEqual([
      v1.versionId,
    ]);
    expect((await t.ask('alice', q, { at: '2026-04-01T00:00:00.000Z' })).map((m) => m.versionId)).toEqual([
      v2.versionId,
    ]);
    expect((await t.ask('alice', q)).map((m) => m.versionId)).toEqual([v2.versionId]);
    expect(await t.ask('alice', q, { at: '2025-01-01T00:00:00.000Z' })).toEqual([]);
  });

  it('abstains: a query about nothing the person said recalls nothing', async () => {
    const t = await setup();
    await t.add('alice', 'Our brand main colour is teal');
    await t.add('alice', 'I prefer serif typefaces for headlines', { subject: 'style.typography' });
    await t.sync();
    expect(await t.ask('alice', 'how many kilometres is the marathon route')).toEqual([]);
  });

  it('rejects with a typed timeout when the signal fires', async () => {
    const t = await setup();
    await t.add('alice', 'Our brand main colour is teal');
    await t.sync();
    const controller = new AbortController();
    controller.abort();
    const error = await t.ask('alice', 'colour', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MemoryRecallTimeoutError);
    expect(error).toMatchObject({ code: 'MEMORY_RECALL_TIMEOUT' });
  });

  it('never returns a memory whose blob was purged', async () => {
    const t = await setup();
    const teal = await t.add('alice', 'Our brand main colour is teal');
    await t.add('alice', 'The logo colour is navy', { subject: 'brand.logo' });
    await t.sync();
    await t.blobs.delete(teal.text!.hash);
    const recalled = await t.ask('alice', 'brand colour');
    expect(recalled.map((m) => m.text)).toEqual(['The logo colour is navy']);
    // a version whose blob is already gone when indexed is not indexed at all
    const gone = await t.add('alice', 'Our brand accent colour is coral', { subject: 'brand.colour.accent' });
    await t.blobs.delete(gone.text!.hash);
    const { upserted } = await t.indexer.syncPerson(ALICE, t.stateOf('alice'));
    expect(upserted).not.toContain(`memory:${gone.versionId}`);
    expect(t.catalog.get('ws1.alice', `memory:${gone.versionId}`)).toBeUndefined();
  });

  it('removes documents by id (what a forgetting calls) and reports what was indexed', async () => {
    const t = await setup();
    const v = await t.add('bob', 'Our brand main colour is teal');
    await t.sync();
    expect(await t.indexer.remove(BOB, [`memory:${v.versionId}`, 'memory:unknown'])).toEqual([`memory:${v.versionId}`]);
    expect(await t.ask('bob', 'brand colour')).toEqual([]);
  });

  it("embeds the query through the embedder's query path and scales the floor by its query similarity", async () => {
    const blobs = new InMemoryBlobStore();
    const catalog = new MemoryIndexCatalog();
    const clock = { now: () => NOW };
    // documents (a, b) in two halves weighted 1/√2; a query fills only its half, as the bilingual ONNX embedder does
    const doc = (a: number, b: number) => Float32Array.from([a, 0, b, 0].map((x) => x * Math.SQRT1_2));
    const embedder = {
      name: 'halves',
      kind: 'semantic' as const,
      dimensions: 4,
      querySimilarityScale: Math.SQRT1_2,
      embed: jest.fn(async ({ texts }: { texts: readonly string[] }) =>
        texts.map((t) => (t.includes('teal') ? doc(1, 1) : doc(0.35, -0.94))),
      ),
      embedQuery: jest.fn(async ({ texts }: { texts: readonly string[] }) =>
        texts.map(() => Float32Array.from([1, 0, 0, 0])),
      ),
    };
    const index = new InMemorySearchIndex({ dimensions: 4 });
    const indexer = new MemoryIndexer({ index, embedder, blobs, catalog, clock });
    const state = initialMemoryState() as MemoryState & { versions: Record<string, MemoryVersionState> };
    for (const text of ['brand colour teal', 'running every morning']) {
      const id = uuid();
      state.versions[id] = {
        versionId: id,
        memoryId: uuid(),
        version: 1,
        subject: 's',
        kind: 'fact',
        scope: { kind: 'long_term' },
        origin: 'explicit',
        text: await blobs.put(text, 'text/plain'),
        fingerprint: 'f'.repeat(64),
        validFrom: '2026-01-01T00:00:00.000Z',
        validTo: null,
        evidence: [],
        derivedFrom: [],
        cause: 'extracted',
        status: 'current',
        supersededBy: null,
        supersededReason: null,
      };
    }
    await indexer.syncPerson(ALICE, state);
    // model cosines: teal 1, running 0.35; floor 0.5 on the model's cosine keeps teal only, although
    // the raw query-document cosines are 0.71 and 0.25
    const recall = new IndexedMemoryRecall({ index, embedder, blobs, catalog, clock, options: { minSimilarity: 0.5 } });
    const got = await recall.recall({ ...ALICE, taskId: 'task-a', text: 'which colour', limit: 5 });
    expect(got.map((m) => m.text)).toEqual(['brand colour teal']);
    expect(embedder.embedQuery).toHaveBeenCalledTimes(1);
    expect(embedder.embed).toHaveBeenCalledTimes(1); // the documents only
    const unscaled = new IndexedMemoryRecall({
      index,
      embedder: { ...embedder, querySimilarityScale: undefined },
      blobs,
      catalog,
      clock,
      options: { minSimilarity: 0.75 },
    });
    expect(await unscaled.recall({ ...ALICE, taskId: 'task-a', text: 'which colour', limit: 5 })).toEqual([]);
  });
});
