import { VectorMatrix } from './vector-matrix';

// A seeded generator, so a failure repeats.
let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648 - 0.5;
};
const randomVector = (d: number) => Float32Array.from({ length: d }, random);
const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
};

describe.each([
  ['WebAssembly SIMD kernel', true],
  ['JS fallback', false],
])('VectorMatrix (%s)', (_name, simd) => {
  it.each([3, 8, 13, 256])('ranks exactly as a brute-force cosine does, %i dims, across growth and removals', (d) => {
    // given 300 vectors (the matrix grows several times), a third of them removed again
    const matrix = new VectorMatrix(d, { simd });
    const kept = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i += 1) {
      const v = randomVector(d);
      matrix.set(`v${i}`, v);
      kept.set(`v${i}`, v);
    }
    for (let i = 0; i < 300; i += 3) {
      matrix.delete(`v${i}`);
      kept.delete(`v${i}`);
    }
    const q = randomVector(d);
    const exclude = new Set(['v1', 'v2']);
    // when the nearest 10 are asked for
    const hits = matrix.search(q, 10, exclude);
    // then they are the brute-force top 10 of the remaining, non-excluded vectors
    const expected = [...kept]
      .filter(([id]) => !exclude.has(id))
      .map(([id, v]) => ({ id, score: cosine(q, v) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    expect(hits.map((h) => h.id)).toEqual(expected.map((h) => h.id));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 5));
    expect(matrix.size).toBe(200);
  });

  it.each([
    ['the first half (a Chinese query of the bilingual embedder)', 0, 512],
    ['the second half (an English one)', 512, 896],
    ['a span that starts and ends inside an 8-float lane', 13, 203],
    ['one column, the last', 895, 896],
  ])('scores a query that is zero outside %s exactly as a full cosine', (_what, from, to) => {
    // given documents that are non-zero everywhere
    const d = 896;
    const matrix = new VectorMatrix(d, { simd });
    const docs = new Map<string, Float32Array>();
    for (let i = 0; i < 120; i += 1) {
      const v = randomVector(d);
      matrix.set(`v${i}`, v);
      docs.set(`v${i}`, v);
    }
    // when the query is zero outside [from, to) (the scan reads only that span of each row)
    const q = new Float32Array(d);
    q.set(randomVector(to - from), from);
    const hits = matrix.search(q, 120, undefined);
    // then every row's score is its full cosine with the query
    expect(hits).toHaveLength(120);
    for (const h of hits) expect(h.score).toBeCloseTo(cosine(q, docs.get(h.id)!), 5);
  });

  it('overwrites a vector set twice and answers a zero query with nothing', () => {
    const matrix = new VectorMatrix(2, { simd });
    matrix.set('a', Float32Array.from([1, 0]));
    matrix.set('a', Float32Array.from([0, 1]));
    expect(matrix.search(Float32Array.from([0, 1]), 5, undefined)).toEqual([{ id: 'a', score: expect.closeTo(1, 5) }]);
    expect(matrix.search(Float32Array.from([0, 0]), 5, undefined)).toEqual([]);
  });
});
