import {
  imagesResponseBody,
  mediaErrorReply,
  startFakeOpenAIMediaServer,
  type FakeMediaReply,
  type FakeMediaServer,
} from '../testing/fake-openai-media-server';
import type { GenerationParams } from '../provider/generation-provider.port';
import { OpenAiImagesProvider, type OpenAiImagesProviderOptions } from './openai-images-provider';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const poster: GenerationParams = {
  kind: 'image',
  operation: 'image.generate',
  prompt: 'A poster of the harbour at dawn',
  options: { size: '1024x1536', quality: 'high' },
};

let server: FakeMediaServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  replies: readonly FakeMediaReply[] | ((index: number) => FakeMediaReply),
  options: Partial<OpenAiImagesProviderOptions> = {},
) {
  server = await startFakeOpenAIMediaServer(typeof replies === 'function' ? (_r, i) => replies(i) : replies);
  const provider = new OpenAiImagesProvider({
    apiKey: 'sk-test',
    baseUrl: server.baseUrl,
    downloadRetryDelayMs: 5,
    ...options,
  });
  return { provider, server };
}

describe('OpenAiImagesProvider against a local images server', () => {
  it('generate: one request with the key as Idempotency-Key, then poll completes with the b64 bytes', async () => {
    const { provider, server } = await setup([{ body: imagesResponseBody({ b64: PNG.toString('base64') }) }]);
    const { upstreamJobId } = await provider.submit(poster, 'turn-1:1:0');
    expect(upstreamJobId).toMatch(/^img_[0-9a-f]{40}$/);

    const state = await provider.poll(upstreamJobId);
    expect(state).toMatchObject({ upstreamJobId, status: 'completed', progress: 100 });
    expect(state.result?.contentType).toBe('image/png');
    await expect(state.result?.download()).resolves.toEqual(PNG);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/images/generations');
    expect(request.headers['idempotency-key']).toBe('turn-1:1:0');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.json).toEqual({
      model: 'gpt-image-1',
      prompt: 'A poster of the harbour at dawn',
      n: 1,
      size: '1024x1536',
      quality: 'high',
    });
  });

  it('a repeat of the same key, even concurrent, makes no second paid request and gets the same id', async () => {
    const { provider, server } = await setup([{ body: imagesResponseBody({ b64: PNG.toString('base64') }) }]);
    const [a, b] = await Promise.all([provider.submit(poster, 'k-1'), provider.submit(poster, 'k-1')]);
    const c = await provider.submit(poster, 'k-1');
    expect(new Set([a.upstreamJobId, b.upstreamJobId, c.upstreamJobId]).size).toBe(1);
    expect(server.count('POST', '/v1/images/generations')).toBe(1);
  });

  it('edit: multipart with the reference image, its bytes and content type', async () => {
    const { provider, server } = await setup([{ body: imagesResponseBody({ b64: PNG.toString('base64') }) }]);
    const reference = Buffer.from('a reference image');
    const { upstreamJobId } = await provider.submit(
      {
        kind: 'image',
        operation: 'image.edit',
        prompt: 'Make it night',
        options: { size: '1024x1024', quality: 'low' },
        references: [{ contentType: 'image/jpeg', bytes: reference }],
      },
      'edit-1',
    );
    await expect((await provider.poll(upstreamJobId)).result?.download()).resolves.toEqual(PNG);

    const [request] = server.requests;
    expect(request.path).toBe('/v1/images/edits');
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers['idempotency-key']).toBe('edit-1');
    expect(request.form?.fields).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'Make it night',
      n: '1',
      size: '1024x1024',
      quality: 'low',
    });
    expect(request.form?.files).toHaveLength(1);
    expect(request.form?.files[0]).toMatchObject({ field: 'image[]', contentType: 'image/jpeg' });
    expect(request.form?.files[0].bytes).toEqual(reference);
  });

  it('edit without a reference is rejected before anything is sent', async () => {
    const { provider, server } = await setup([]);
    await expect(
      provider.submit({ kind: 'image', operation: 'image.edit', prompt: 'x', options: {} }, 'e'),
    ).rejects.toMatchObject({ code: 'GENERATION_REJECTED' });
    expect(server.requests).toHaveLength(0);
  });

  it('a URL result is downloaded at poll time, retried after a 503 without regenerating', async () => {
    const { provider, server } = await setup((index) => {
      if (index === 0) return { body: imagesResponseBody({ url: `${server?.origin}/files/img.png` }) };
      if (index === 1) return mediaErrorReply(503, 'busy');
      return { bytes: PNG, contentType: 'image/png' };
    });
    const { upstreamJobId } = await provider.submit({ ...poster, options: {} }, 'url-1');
    const state = await provider.poll(upstreamJobId);
    await expect(state.result?.download()).resolves.toEqual(PNG);
    expect(server.count('POST', '/v1/images/generations')).toBe(1);
    expect(server.count('GET', '/files/img.png')).toBe(2);
  });

  it('poll of an id this process never issued is UPSTREAM_JOB_NOT_FOUND', async () => {
    const { provider } = await setup([]);
    await expect(provider.poll('img_0000')).rejects.toMatchObject({ code: 'UPSTREAM_JOB_NOT_FOUND' });
  });

  it('429 then success: rate limited with retry-after, and exactly one image is made', async () => {
    const { provider, server } = await setup([
      mediaErrorReply(429, 'Rate limit reached', { type: 'requests', headers: { 'retry-after': '2' } }),
      { body: imagesResponseBody({ b64: PNG.toString('base64') }) },
    ]);
    await expect(provider.submit(poster, 'rl-1')).rejects.toMatchObject({
      code: 'GENERATION_RATE_LIMITED',
      retriable: true,
      retryAfterMs: 2000,
    });
    // The SDK did not retry on its own: the caller decides.
    expect(server.requests).toHaveLength(1);
    const { upstreamJobId } = await provider.submit(poster, 'rl-1');
    expect((await provider.poll(upstreamJobId)).status).toBe('completed');
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['rl-1', 'rl-1']);
  });

  it('400 fails cleanly with GENERATION_REJECTED, one request, nothing kept', async () => {
    const { provider, server } = await setup([
      mediaErrorReply(400, 'Invalid size', { code: 'invalid_value' }),
      { body: imagesResponseBody({ b64: PNG.toString('base64') }) },
    ]);
    const error = await provider.submit(poster, 'bad-1').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'GENERATION_REJECTED',
      retriable: false,
      status: 400,
      details: { status: 400, vendorCode: 'invalid_value' },
    });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [401, 'GENERATION_AUTH_FAILED'],
    [403, 'GENERATION_AUTH_FAILED'],
    [404, 'GENERATION_REJECTED'],
  ])('%i is %s, without a retry', async (status, code) => {
    const { provider, server } = await setup([mediaErrorReply(status, 'no'), mediaErrorReply(status, 'no')]);
    await expect(provider.submit(poster, `s-${status}`)).rejects.toMatchObject({ code, retriable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('a server that takes the request and never answers is GENERATION_OUTCOME_UNKNOWN, never resent', async () => {
    const { provider, server } = await setup([{ hang: 'before-headers' }, { hang: 'before-headers' }], {
      timeoutMs: 200,
    });
    await expect(provider.submit(poster, 'hang-1')).rejects.toMatchObject({
      code: 'GENERATION_OUTCOME_UNKNOWN',
      retriable: false,
    });
    // The same key again gets the same verdict from memory, not a second paid request.
    await expect(provider.submit(poster, 'hang-1')).rejects.toMatchObject({ code: 'GENERATION_OUTCOME_UNKNOWN' });
    expect(server.requests).toHaveLength(1);
  });

  it('a body that stalls after the headers is GENERATION_OUTCOME_UNKNOWN', async () => {
    const { provider } = await setup([{ hang: 'mid-body' }], { timeoutMs: 200 });
    await expect(provider.submit(poster, 'stall-1')).rejects.toMatchObject({ code: 'GENERATION_OUTCOME_UNKNOWN' });
  });

  it('500 is GENERATION_OUTCOME_UNKNOWN and is not retried by the SDK', async () => {
    const { provider, server } = await setup([
      mediaErrorReply(500, 'The server had an error', { type: 'server_error' }),
      { body: imagesResponseBody({ b64: PNG.toString('base64') }) },
    ]);
    await expect(provider.submit(poster, 'five-1')).rejects.toMatchObject({ code: 'GENERATION_OUTCOME_UNKNOWN' });
    expect(server.requests).toHaveLength(1);
  });

  it('a connection closed after the request was read is GENERATION_OUTCOME_UNKNOWN', async () => {
    const { provider, server } = await setup([{ drop: true }]);
    await expect(provider.submit(poster, 'drop-1')).rejects.toMatchObject({ code: 'GENERATION_OUTCOME_UNKNOWN' });
    expect(server.requests).toHaveLength(1);
  });

  it('a refused connection is GENERATION_UNAVAILABLE (retriable), and the key may be tried again', async () => {
    const { provider, server } = await setup([]);
    await server.close();
    await expect(provider.submit(poster, 'refused-1')).rejects.toMatchObject({
      code: 'GENERATION_UNAVAILABLE',
      retriable: true,
    });
    await expect(provider.submit(poster, 'refused-1')).rejects.toMatchObject({ code: 'GENERATION_UNAVAILABLE' });
  });
});
