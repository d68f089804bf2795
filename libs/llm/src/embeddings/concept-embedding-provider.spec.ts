import { ConceptEmbeddingProvider } from './concept-embedding-provider';
import { HashingEmbeddingProvider } from './hashing-embedding-provider';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);

describe('ConceptEmbeddingProvider (lexical, with a bilingual thesaurus)', () => {
  const embedder = new ConceptEmbeddingProvider();

  it('says what it is and gives unit vectors', async () => {
    expect(embedder).toMatchObject({ name: 'concept', kind: 'lexical', dimensions: 256 });
    const [v] = await embedder.embed({ texts: ['teal logo'] });
    expect(dot(v!, v!)).toBeCloseTo(1, 5);
  });

  it('brings synonyms and translations together where the hashing embedder cannot', async () => {
    const hashing = new HashingEmbeddingProvider();
    const pair = ['which hue does the company use', 'our brand colour is navy'];
    const [a, b] = await embedder.embed({ texts: pair });
    const [ha, hb] = await hashing.embed({ texts: pair });
    expect(dot(a!, b!)).toBeGreaterThan(0.3);
    expect(dot(ha!, hb!)).toBeLessThan(0.2);
    const [zh, en] = await embedder.embed({ texts: ['品牌主色是藍色', 'brand main colour blue'] });
    expect(dot(zh!, en!)).toBeGreaterThan(0.4);
    expect(embedder.conceptsOf('海报用暖色系')).toEqual(expect.arrayContaining(['poster', 'warm', 'colour']));
  });

  it('keeps unrelated texts apart, honours abort and refuses bad dimensions', async () => {
    const [a, b] = await embedder.embed({ texts: ['brand colour palette', 'marathon route kilometres'] });
    expect(dot(a!, b!)).toBeLessThan(0.1);
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed({ texts: ['x'], signal: controller.signal })).rejects.toMatchObject({
      code: 'MODEL_ABORTED',
    });
    expect(() => new ConceptEmbeddingProvider({ dimensions: 2 })).toThrow();
  });
});
