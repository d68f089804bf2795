import { TermPostings, type Bm25Shape } from './term-postings';

// A naive reference: every live document scored over every query term, sorted by score then id.
function reference(
  docs: Map<string, string[]>,
  terms: Array<{ term: string; idf: number }>,
  shape: Bm25Shape,
  limit: number,
  exclude: ReadonlySet<string>,
) {
  const hits: Array<{ id: string; score: number }> = [];
  for (const [id, tokens] of docs) {
    if (exclude.has(id)) continue;
    let score = 0;
    for (const { term, idf } of terms) {
      const tf = tokens.filter((t) => t === term).length;
      if (tf === 0) continue;
      const norm = shape.k1 * (1 - shape.b + (shape.b * (tokens.length + shape.lengthOffset)) / shape.average);
      score += (idf * tf * (shape.k1 + 1)) / (tf + norm);
    }
    if (score > 0) hits.push({ id, score });
  }
  return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
}

describe('TermPostings', () => {
  let seed = 7;
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const vocabulary = Array.from({ length: 300 }, (_, i) => `w${i}`);
  const weights = vocabulary.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const word = () => {
    let x = random() * total;
    for (let i = 0; i < weights.length; i += 1) if ((x -= weights[i]!) <= 0) return vocabulary[i]!;
    return vocabulary[vocabulary.length - 1]!;
  };
  const shape: Bm25Shape = { k1: 1.2, b: 0.75, average: 12, lengthOffset: 1 };
  // idf by document frequency, as BM25 gives it: common terms weigh little (MaxScore skips them).
  const weighted = (docs: Map<string, string[]>, query: string[]) =>
    [...new Set(query)].map((term) => {
      let df = 0;
      for (const tokens of docs.values()) if (tokens.includes(term)) df += 1;
      return { term, idf: Math.max(1e-6, Math.log((docs.size - df + 0.5) / (df + 0.5))) };
    });

  it('ranks exactly as scoring every document would, through replacements, removals and compaction', () => {
    // given 3 000 documents, then 1 500 of them removed or replaced (dead slots past a quarter: compacted)
    const postings = new TermPostings();
    const docs = new Map<string, string[]>();
    const put = (id: string) => {
      const tokens = Array.from({ length: 4 + Math.floor(random() * 16) }, word);
      docs.set(id, tokens);
      postings.set(id, tokens);
    };
    for (let i = 0; i < 3_000; i += 1) put(`d${i}`);
    for (let i = 0; i < 1_500; i += 1) {
      if (i % 2 === 0) {
        docs.delete(`d${i}`);
        postings.delete(`d${i}`);
      } else put(`d${i}`);
    }
    expect(postings.size).toBe(docs.size);
    // when queried with Zipf queries, some excluding ids
    for (let q = 0; q < 60; q += 1) {
      const terms = weighted(docs, Array.from({ length: 2 + (q % 9) }, word));
      const exclude = new Set(q % 3 === 0 ? [...docs.keys()].slice(0, 5) : []);
      const hits = postings.search(terms, shape, 5, exclude);
      // then ids and scores are the reference's
      const expected = reference(docs, terms, shape, 5, exclude);
      expect(hits.map((h) => h.score)).toEqual(expected.map((e) => expect.closeTo(e.score, 9)));
      expect(hits.map((h) => h.id)).toEqual(expected.map((e) => e.id));
    }
  });

  it('returns fewer hits than the limit when fewer documents match, and none for unknown terms', () => {
    const postings = new TermPostings();
    postings.set('a', ['poster', 'warm']);
    postings.set('b', ['video']);
    expect(postings.search([{ term: 'poster', idf: 1 }], shape, 5, new Set()).map((h) => h.id)).toEqual(['a']);
    expect(postings.search([{ term: 'logo', idf: 1 }], shape, 5, new Set())).toEqual([]);
    expect(postings.search([{ term: 'poster', idf: 1 }], shape, 5, new Set(['a']))).toEqual([]);
  });
});
