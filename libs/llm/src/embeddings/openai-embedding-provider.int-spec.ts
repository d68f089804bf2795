import {
  errorReply,
  startFakeOpenAIServer,
  type FakeOpenAIReply,
  type FakeOpenAIServer,
} from '../testing/fake-openai-server';
import { embeddingsBody } from '../testing/fake-openai-server';
import { OpenAIEmbeddingProvider, type OpenAIEmbeddingProviderOptions } from './openai-embedding-provider';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: readonly FakeOpenAIReply[], options: Partial<OpenAIEmbeddingProviderOptions> = {}) {
  server = await startFakeOpenAIServer(replies);
  const provider = new OpenAIEmbeddingProvider({
    apiKey: 'sk-test',
    baseUrl: server.baseUrl,
    model: 'embed-test',
    dimensions: 3,
    initialRetryDelayMs: 5,
    maxRetryDelayMs: 20,
    ...options,
  });
  return { provider, server };
}

describe('OpenAIEmbeddingProvider against a local embeddings server', () => {
  it('sends model, inputs, float encoding and dimensions, and maps the vectors by index, normalised', async () => {
    const { provider, server } = await setup([
      // Out of order on purpose: the index field, not the position, says which input it is.
      {
        body: embeddingsBody(
          [
            [0, 3, 4],
            [2, 0, 0],
          ],
          { reversed: true },
        ),
      },
    ]);
    const vectors = await provider.embed({ texts: ['first', 'second'] });
    expect(provider).toMatchObject({ name: 'openai', kind: 'semantic', dimensions: 3 });
    expect(vectors.map((v) => [...v])).toEqual([
      [0, 0.6000000238418579, 0.800000011920929],
      [1, 0, 0],
    ]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/embeddings' });
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-test');
    expect(server.requests[0].body).toEqual({
      model: 'embed-test',
      input: ['first', 'second'],
      encoding_format: 'float',
      dimensions: 3,
    });
  });

  it('makes no request for no texts', async () => {
    const { provider, server } = await setup([]);
    await expect(provider.embed({ texts: [] })).resolves.toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('retries a 503 with the shared helper and succeeds', async () => {
    const { provider, server } = await setup([
      errorReply(503, 'overloaded', { type: 'server_error' }),
      { body: embeddingsBody([[1, 0, 0]]) },
    ]);
    await expect(provider.embed({ texts: ['x'] })).resolves.toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('maps a 401 to MODEL_AUTH_FAILED without retrying', async () => {
    const { provider, server } = await setup([errorReply(401, 'bad key'), { body: embeddingsBody([[1, 0, 0]]) }]);
    await expect(provider.embed({ texts: ['x'] })).rejects.toMatchObject({
      code: 'MODEL_AUTH_FAILED',
      retriable: false,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('times out a hanging server with MODEL_TIMEOUT, retried as retriable', async () => {
    const { provider, server } = await setup([{ hang: 'before-headers' }, { hang: 'before-headers' }], {
      timeoutMs: 150,
      maxRetries: 1,
    });
    await expect(provider.embed({ texts: ['x'] })).rejects.toMatchObject({ code: 'MODEL_TIMEOUT', retriable: true });
    expect(server.requests).toHaveLength(2);
  });

  it('rejects vectors of the wrong length or a missing input as MODEL_INVALID_RESPONSE', async () => {
    const { provider } = await setup([{ body: embeddingsBody([[1, 0]]) }, { body: embeddingsBody([[1, 0, 0]]) }], {
      maxRetries: 0,
    });
    await expect(provider.embed({ texts: ['x'] })).rejects.toMatchObject({ code: 'MODEL_INVALID_RESPONSE' });
    await expect(provider.embed({ texts: ['x', 'y'] })).rejects.toMatchObject({ code: 'MODEL_INVALID_RESPONSE' });
  });
});
