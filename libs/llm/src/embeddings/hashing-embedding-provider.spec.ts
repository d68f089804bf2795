import { HashingEmbeddingProvider } from './hashing-embedding-provider';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);
const norm = (a: Float32Array) => Math.sqrt(cosine(a, a));

describe('HashingEmbeddingProvider (lexical, local)', () => {
  const embedder = new HashingEmbeddingProvider();

  it('says what it is: lexical, 256 dimensions by default', () => {
    expect(embedder).toMatchObject({ name: 'hashing', kind: 'lexical', dimensions: 256 });
  });

  it('gives L2-normalised vectors, the same for the same text on every call', async () => {
    const [a, b] = await embedder.embed({ texts: ['winter coat catalogue', 'winter coat catalogue'] });
    expect(a).toHaveLength(256);
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect([...a!]).toEqual([...b!]);
  });

  it('puts texts sharing words (or Han bigrams) closer than texts sharing none', async () => {
    const [coat, coats, kayak] = await embedder.embed({
      texts: ['winter coat catalogue for the shop', 'catalogue of winter coats', 'kayak rental prices'],
    });
    expect(cosine(coat!, coats!)).toBeGreaterThan(cosine(coat!, kayak!) + 0.3);
    const [a, b, c] = await embedder.embed({ texts: ['咖啡店菜单设计', '设计咖啡店的菜单', '露营装备清单'] });
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!) + 0.3);
  });

  it('gives the zero vector for a text with no tokens and honours dimensions and abort', async () => {
    const [empty] = await embedder.embed({ texts: ['  '] });
    expect(norm(empty!)).toBe(0);
    expect((await new HashingEmbeddingProvider({ dimensions: 64 }).embed({ texts: ['x'] }))[0]).toHaveLength(64);
    expect(() => new HashingEmbeddingProvider({ dimensions: 3 })).toThrow(
      expect.objectContaining({ code: 'MODEL_BAD_REQUEST' }),
    );
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed({ texts: ['x'], signal: controller.signal })).rejects.toMatchObject({
      code: 'MODEL_ABORTED',
    });
  });
});
