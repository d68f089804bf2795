import { createEmbeddingProvider } from './create-embedding-provider';

describe('createEmbeddingProvider', () => {
  it('defaults to the local lexical hashing embedder', () => {
    expect(createEmbeddingProvider()).toMatchObject({ name: 'hashing', kind: 'lexical', dimensions: 256 });
    expect(createEmbeddingProvider({ modelProvider: 'offline' }).name).toBe('hashing');
  });

  it('follows a configured OpenAI endpoint unless told otherwise', () => {
    const openai = createEmbeddingProvider({
      modelProvider: 'openai',
      apiKey: 'sk-x',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    expect(openai).toMatchObject({ name: 'openai', kind: 'semantic', dimensions: 1536 });
    expect(createEmbeddingProvider({ modelProvider: 'openai', provider: 'hashing' }).name).toBe('hashing');
    expect(createEmbeddingProvider({ provider: 'openai', apiKey: 'k', dimensions: 512 }).dimensions).toBe(512);
  });

  it('fails at start-up naming the variables to set', () => {
    expect(() => createEmbeddingProvider({ provider: 'openai' })).toThrow(/OPENAI_API_KEY is required/);
    expect(() => createEmbeddingProvider({ provider: 'openai', apiKey: 'k', baseUrl: 'ftp://x' })).toThrow(
      /LOMO_EMBEDDING_BASE_URL must be an http\(s\) URL/,
    );
    expect(() => createEmbeddingProvider({ provider: 'word2vec' as never })).toThrow(/LOMO_EMBEDDING_PROVIDER|Unknown/);
  });
});
