import { HashingEmbeddingProvider } from '@lomo/llm';
import { aRoutingDocument, InMemoryRoutingIndex, InMemorySearchIndex } from '../testing';
import { routingText, type RoutingDocument } from '../index/routing-document';
import { retrieveCandidates } from './retrieve-candidates';
import { duplicateCandidates } from './duplicate-candidates';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

async function given(documents: RoutingDocument[]) {
  const index = new InMemoryRoutingIndex().put(...documents);
  const search = new InMemorySearchIndex({ dimensions: 256 });
  const embedder = new HashingEmbeddingProvider({ dimensions: 256 });
  const vectors = await embedder.embed({ texts: documents.map(routingText) });
  await search.upsert(
    documents.map((d, i) => ({ scope: d.workspaceId, id: d.taskId, text: routingText(d), vector: vectors[i] })),
  );
  return { index, search, embedder };
}

const filler = (n: number, from: number) =>
  Array.from({ length: n }, (_, i) =>
    aRoutingDocument({ taskId: `recent-${i}`, goal: `weekly report number ${i}`, lastActiveAt: at(from + i) }),
  );

describe('retrieveCandidates', () => {
  it('returns the N most recent plus older work retrieved by keywords, without repeating the recent ones', async () => {
    // given an old poster task and three newer unrelated ones
    const old = aRoutingDocument({
      taskId: 'poster',
      goal: 'Design festival posters',
      summary: 'warm palette',
      lastActiveAt: at(1),
    });
    const sources = await given([old, ...filler(3, 10)]);

    // when a follow-up about the posters arrives with N = 2
    const candidates = await retrieveCandidates(sources, {
      workspaceId: 'ws-1',
      text: 'make the posters warmer',
      recent: 2,
      retrieved: 5,
    });

    // then the two most recent come first and the poster task is retrieved, once
    expect(candidates.map((c) => [c.taskId, c.source])).toEqual([
      ['recent-2', 'recent'],
      ['recent-1', 'recent'],
      ['poster', 'retrieval'],
    ]);
    expect(candidates.find((c) => c.taskId === 'poster')!.score).toBeGreaterThan(0);
    expect(candidates.find((c) => c.taskId === 'recent-1')!.score).toBe(0);
  });

  it('leaves out archived and merged tasks even when the search index still has them', async () => {
    const archived = aRoutingDocument({ taskId: 'a', goal: 'poster series', status: 'archived', lastActiveAt: at(1) });
    const merged = aRoutingDocument({ taskId: 'm', goal: 'poster series two', mergedInto: 'x', lastActiveAt: at(2) });
    const sources = await given([archived, merged, ...filler(1, 10)]);

    const candidates = await retrieveCandidates(sources, { workspaceId: 'ws-1', text: 'poster series', recent: 5 });

    expect(candidates.map((c) => c.taskId)).toEqual(['recent-0']);
  });

  it('always includes the recent decisions, even before the index has them', async () => {
    const sources = await given(filler(3, 10));
    const justCreated = aRoutingDocument({ taskId: 'new-one', goal: 'Draw a cat logo', lastActiveAt: at(99) });

    const candidates = await retrieveCandidates(sources, {
      workspaceId: 'ws-1',
      text: 'make it blue',
      recent: 2,
      alsoInclude: [justCreated],
    });

    expect(candidates[0]).toMatchObject({ taskId: 'new-one', source: 'recent_decision' });
    expect(candidates.filter((c) => c.taskId === 'new-one')).toHaveLength(1);
    expect(candidates).toHaveLength(3);
  });

  it('a recent decision the index already has is listed once, as a recent decision', async () => {
    const sources = await given(filler(3, 10));
    const candidates = await retrieveCandidates(sources, {
      workspaceId: 'ws-1',
      text: 'report',
      recent: 3,
      alsoInclude: [aRoutingDocument({ taskId: 'recent-2', goal: 'stale goal' })],
    });
    expect(candidates.map((c) => [c.taskId, c.source])).toEqual([
      ['recent-2', 'recent_decision'],
      ['recent-1', 'recent'],
      ['recent-0', 'recent'],
    ]);
    expect(candidates[0]!.document.goal).toBe('weekly report number 2');
  });

  it('finds an old Chinese task from a Chinese follow-up', async () => {
    const old = aRoutingDocument({
      taskId: 'zh',
      goal: '为新品发布会设计海报',
      summary: '已完成三张暖色调海报',
      lastActiveAt: at(1),
    });
    const sources = await given([old, ...filler(4, 10)]);

    const candidates = await retrieveCandidates(sources, {
      workspaceId: 'ws-1',
      text: '把上次的海报颜色调暖一点',
      recent: 2,
    });

    expect(candidates.find((c) => c.taskId === 'zh')).toMatchObject({ source: 'retrieval' });
    expect(candidates.find((c) => c.taskId === 'zh')!.score).toBeGreaterThan(0);
  });

  it('stays within N + K however many tasks match', async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      aRoutingDocument({ taskId: `p${i}`, goal: `poster variant ${i}`, lastActiveAt: at(i) }),
    );
    const sources = await given(many);
    const candidates = await retrieveCandidates(sources, {
      workspaceId: 'ws-1',
      text: 'poster',
      recent: 20,
      retrieved: 5,
    });
    expect(candidates).toHaveLength(25);
    expect(new Set(candidates.map((c) => c.taskId)).size).toBe(25);
  });

  it('never crosses workspaces', async () => {
    const other = aRoutingDocument({ taskId: 'other', workspaceId: 'ws-2', goal: 'poster', lastActiveAt: at(1) });
    const sources = await given([other]);
    const candidates = await retrieveCandidates(sources, { workspaceId: 'ws-1', text: 'poster' });
    expect(candidates).toEqual([]);
  });
});

describe('duplicateCandidates', () => {
  it('ranks the active task with the same goal first and ignores inactive ones', async () => {
    const same = aRoutingDocument({
      taskId: 'dup',
      goal: 'Design posters for the spring festival',
      lastActiveAt: at(1),
    });
    const done = aRoutingDocument({
      taskId: 'done',
      goal: 'Design posters for the spring festival',
      status: 'completed',
      lastActiveAt: at(2),
    });
    const near = aRoutingDocument({ taskId: 'near', goal: 'Write festival newsletter', lastActiveAt: at(3) });
    const sources = await given([same, done, near, ...filler(3, 10)]);

    const found = await duplicateCandidates(sources, { workspaceId: 'ws-1', goal: 'posters for the spring festival' });

    expect(found.map((c) => c.taskId).slice(0, 2)).toEqual(['dup', 'near']);
    expect(found.map((c) => c.taskId)).not.toContain('done');
    expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
    expect(found[0]!.lexical).toBe(1);
    expect(found[0]!.vector).toBeGreaterThan(0.5);
  });

  it('looks only at the pool of most recent active tasks', async () => {
    const oldDup = aRoutingDocument({ taskId: 'old', goal: 'cat logo', lastActiveAt: at(1) });
    const sources = await given([oldDup, ...filler(5, 10)]);
    expect(await duplicateCandidates(sources, { workspaceId: 'ws-1', goal: 'cat logo', pool: 5 })).toEqual([]);
    expect((await duplicateCandidates(sources, { workspaceId: 'ws-1', goal: 'cat logo', pool: 6 }))[0]!.taskId).toBe(
      'old',
    );
  });
});
