import type { SearchDocument, SearchIndex } from '../../search/search-index.port';

export interface SearchIndexHarness {
  /** A fresh, empty index with vectors of `dimensions`; `reopen` gives another instance on the same store. */
  create(
    dimensions: number,
  ): Promise<{ index: SearchIndex; reopen?: () => Promise<SearchIndex>; dispose(): Promise<void> }>;
}

const DIM = 4;
const vec = (...values: number[]) => Float32Array.from(values);
const doc = (id: string, text: string, vector?: Float32Array, scope = 'ws-a'): SearchDocument => ({
  scope,
  id,
  text,
  ...(vector ? { vector } : {}),
});
const ids = (hits: Array<{ id: string }>) => hits.map((h) => h.id);
const all = { limit: 100 };

/** The one contract every SearchIndex adapter passes (in-memory, SQLite FTS5, MongoDB wire). */
export function describeSearchIndexContract(name: string, harness: SearchIndexHarness): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let index: SearchIndex;
    let reopen: (() => Promise<SearchIndex>) | undefined;
    let dispose: () => Promise<void>;

    beforeEach(async () => {
      ({ index, reopen, dispose } = await harness.create(DIM));
    });
    afterEach(async () => dispose());

    const seed = (...documents: SearchDocument[]) => index.upsert(documents);

    it('finds an upserted document by one of its words (plural or not)', async () => {
      await seed(doc('t1', 'Design the spring festival posters'), doc('t2', 'Write a blog article about tea'));
      expect(ids(await index.searchText('ws-a', 'poster', all))).toEqual(['t1']);
    });

    it('ranks a document matching more query terms above one matching fewer', async () => {
      await seed(
        doc('few', 'poster for the shop'),
        doc('more', 'warm poster colours for the shop window'),
        doc('none', 'tax report'),
      );
      expect(ids(await index.searchText('ws-a', 'warm poster colours', all))).toEqual(['more', 'few']);
    });

    it('weighs a rare term above a common one', async () => {
      await seed(
        doc('common', 'video edit'),
        doc('rare', 'video subtitles'),
        doc('c2', 'video music'),
        doc('c3', 'video intro edit'),
      );
      const hits = await index.searchText('ws-a', 'video subtitles edit', all);
      expect(hits[0]?.id).toBe('rare');
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    });

    it('replaces a document on upsert: its old words no longer match', async () => {
      await seed(doc('t1', 'blue logo draft'));
      await seed(doc('t1', 'green banner draft'));
      expect(await index.searchText('ws-a', 'logo', all)).toEqual([]);
      expect(ids(await index.searchText('ws-a', 'banner', all))).toEqual(['t1']);
    });

    it('removes documents from text and vector search', async () => {
      await seed(doc('t1', 'poster draft', vec(1, 0, 0, 0)), doc('t2', 'poster final', vec(0, 1, 0, 0)));
      await index.remove('ws-a', ['t1', 'unknown']);
      expect(ids(await index.searchText('ws-a', 'poster', all))).toEqual(['t2']);
      expect(ids(await index.searchVector('ws-a', vec(1, 0, 0, 0), all))).toEqual(['t2']);
    });

    it('never returns a hit from another scope', async () => {
      await seed(doc('mine', 'poster', vec(1, 0, 0, 0)), doc('theirs', 'poster poster', vec(1, 0, 0, 0), 'ws-b'));
      expect(ids(await index.searchText('ws-a', 'poster', all))).toEqual(['mine']);
      expect(ids(await index.searchVector('ws-a', vec(1, 0, 0, 0), all))).toEqual(['mine']);
      expect(ids(await index.searchText('ws-c', 'poster', all))).toEqual([]);
      await index.remove('ws-b', ['mine']);
      expect(ids(await index.searchText('ws-a', 'poster', all))).toEqual(['mine']);
    });

    it('leaves out excluded ids and still fills the limit from the rest', async () => {
      await seed(doc('a', 'poster poster warm'), doc('b', 'poster warm'), doc('c', 'poster'));
      expect(ids(await index.searchText('ws-a', 'poster warm', { limit: 2, exclude: new Set(['a']) }))).toEqual([
        'b',
        'c',
      ]);
    });

    it('returns at most `limit` hits, best first', async () => {
      await seed(...['a', 'b', 'c', 'd', 'e'].map((id) => doc(id, `poster ${id}`)));
      const hits = await index.searchText('ws-a', 'poster', { limit: 3 });
      expect(hits).toHaveLength(3);
    });

    it('finds a Chinese goal by a query sharing character bigrams with it', async () => {
      await seed(doc('zh', '帮我设计春节海报'), doc('other', '写一篇关于茶的文章'));
      expect(ids(await index.searchText('ws-a', '海报再暖一点', all))).toEqual(['zh']);
    });

    it('treats Traditional and Simplified characters as different tokens (no conversion)', async () => {
      await seed(doc('simplified', '海报设计'));
      // 報 is not 报: a Traditional query only meets the Simplified goal on shared characters.
      expect(await index.searchText('ws-a', '報設', all)).toEqual([]);
      expect(ids(await index.searchText('ws-a', '海报', all))).toEqual(['simplified']);
    });

    it('indexes mixed scripts: an English word and a Chinese bigram of one text both find it', async () => {
      await seed(doc('mix', 'Logo 设计 for the 咖啡店'), doc('en', 'logo only'));
      expect(ids(await index.searchText('ws-a', '咖啡', all))).toEqual(['mix']);
      expect(ids(await index.searchText('ws-a', 'logo 设计', all))[0]).toBe('mix');
    });

    it('returns the nearest vectors by cosine, within scope, exclude and limit', async () => {
      await seed(
        doc('x', 'a', vec(1, 0, 0, 0)),
        doc('xy', 'b', vec(2, 2, 0, 0)), // length does not matter, direction does
        doc('y', 'c', vec(0, 1, 0, 0)),
        doc('neg', 'd', vec(-1, 0, 0, 0)),
        doc('novec', 'e'),
        doc('far', 'f', vec(1, 0, 0, 0), 'ws-b'),
      );
      const hits = await index.searchVector('ws-a', vec(3, 1, 0, 0), all);
      expect(ids(hits)).toEqual(['x', 'xy', 'y', 'neg']);
      expect(hits[0]!.score).toBeCloseTo(3 / Math.sqrt(10), 5);
      expect(ids(await index.searchVector('ws-a', vec(3, 1, 0, 0), { limit: 2, exclude: new Set(['x']) }))).toEqual([
        'xy',
        'y',
      ]);
    });

    it('drops a vector when a document is upserted without one', async () => {
      await seed(doc('x', 'a', vec(1, 0, 0, 0)));
      await index.searchVector('ws-a', vec(1, 0, 0, 0), all); // loads any cache
      await seed(doc('x', 'a'));
      expect(await index.searchVector('ws-a', vec(1, 0, 0, 0), all)).toEqual([]);
    });

    it('answers an empty or stopword-only query with no hits', async () => {
      await seed(doc('t1', 'poster'));
      expect(await index.searchText('ws-a', '', all)).toEqual([]);
      expect(await index.searchText('ws-a', ' the and, of ', all)).toEqual([]);
    });

    it('sees documents written earlier through another instance on the same store', async () => {
      if (!reopen) return;
      await seed(doc('t1', 'poster', vec(1, 0, 0, 0)));
      const other = await reopen();
      expect(ids(await other.searchText('ws-a', 'poster', all))).toEqual(['t1']);
      expect(ids(await other.searchVector('ws-a', vec(1, 0, 0, 0), all))).toEqual(['t1']);
    });

    describe('bad input gets a typed error and changes nothing', () => {
      const bad: Array<[string, (i: SearchIndex) => Promise<unknown>]> = [
        ['an empty scope', (i) => i.upsert([doc('n', 'new words', undefined, '')])],
        ['an empty id', (i) => i.upsert([doc('', 'new words')])],
        ['a vector of the wrong length', (i) => i.upsert([doc('n', 'new words', vec(1, 0, 0))])],
        ['a vector holding NaN', (i) => i.upsert([doc('n', 'new words', vec(1, Number.NaN, 0, 0))])],
        ['one bad document in a batch', (i) => i.upsert([doc('n', 'new words'), doc('m', 'x', vec(1))])],
        ['remove with an empty id', (i) => i.remove('ws-a', ['t1', ''])],
        ['remove with an empty scope', (i) => i.remove('', ['t1'])],
        ['remove with ids that are not an array', (i) => i.remove('ws-a', 't1' as unknown as string[])],
        ['limit 0', (i) => i.searchText('ws-a', 'poster', { limit: 0 })],
        ['limit 1001', (i) => i.searchText('ws-a', 'poster', { limit: 1001 })],
        ['a fractional limit', (i) => i.searchVector('ws-a', vec(1, 0, 0, 0), { limit: 1.5 })],
        ['a query vector of the wrong length', (i) => i.searchVector('ws-a', vec(1, 0), all)],
        ['a search in an empty scope', (i) => i.searchText('', 'poster', all)],
      ];
      it.each(bad)('%s', async (_name, act) => {
        await seed(doc('t1', 'poster', vec(1, 0, 0, 0)));
        await expect(act(index)).rejects.toMatchObject({ code: 'SEARCH_INVALID_INPUT', retriable: false });
        expect(ids(await index.searchText('ws-a', 'poster', all))).toEqual(['t1']);
        expect(await index.searchText('ws-a', 'new words', all)).toEqual([]);
        expect(ids(await index.searchVector('ws-a', vec(1, 0, 0, 0), all))).toEqual(['t1']);
      });
    });

    it('clear() drops every document of every scope', async () => {
      await seed(doc('t1', 'poster', vec(1, 0, 0, 0)), doc('t2', 'poster', vec(1, 0, 0, 0), 'ws-b'));
      await index.searchVector('ws-a', vec(1, 0, 0, 0), all);
      await index.clear();
      for (const scope of ['ws-a', 'ws-b']) {
        expect(await index.searchText(scope, 'poster', all)).toEqual([]);
        expect(await index.searchVector(scope, vec(1, 0, 0, 0), all)).toEqual([]);
      }
      await seed(doc('t3', 'poster'));
      expect(ids(await index.searchText('ws-a', 'poster', all))).toEqual(['t3']);
    });
  });
}
