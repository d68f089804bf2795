import {
  mediaErrorReply,
  startFakeOpenAIMediaServer,
  videoBody,
  type FakeMediaReply,
  type FakeMediaServer,
} from '../testing/fake-openai-media-server';
import type { GenerationParams } from '../provider/generation-provider.port';
import { OpenAiVideosProvider, type OpenAiVideosProviderOptions } from './openai-videos-provider';

const MP4 = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
const clip: GenerationParams = {
  kind: 'video',
  operation: 'video.generate',
  prompt: 'A slow pan over the harbour at dawn',
  options: { size: '1280x720', seconds: 8 },
};

let server: FakeMediaServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: readonly FakeMediaReply[], options: Partial<OpenAiVideosProviderOptions> = {}) {
  server = await startFakeOpenAIMediaServer(replies);
  const provider = new OpenAiVideosProvider({
    apiKey: 'sk-test',
    baseUrl: server.baseUrl,
    downloadRetryDelayMs: 5,
    ...options,
  });
  return { provider, server };
}

describe('OpenAiVideosProvider against a local videos server', () => {
  it('create → retrieve in_progress → completed → download bytes', async () => {
    const { provider, server } = await setup([
      { body: videoBody({ id: 'video_1', status: 'queued' }) },
      { body: videoBody({ id: 'video_1', status: 'in_progress', progress: 42.6 }) },
      { body: videoBody({ id: 'video_1', status: 'completed' }) },
      { bytes: MP4, contentType: 'video/mp4' },
    ]);
    await expect(provider.submit(clip, 'turn-1:2:0')).resolves.toEqual({ upstreamJobId: 'video_1' });
    await expect(provider.poll('video_1')).resolves.toEqual({
      upstreamJobId: 'video_1',
      status: 'processing',
      progress: 43,
    });
    const done = await provider.poll('video_1');
    expect(done).toMatchObject({ upstreamJobId: 'video_1', status: 'completed', progress: 100 });
    expect(done.result?.contentType).toBe('video/mp4');
    await expect(done.result?.download()).resolves.toEqual(MP4);

    const [create, retrieve, , download] = server.requests;
    expect(create.method).toBe('POST');
    expect(create.path).toBe('/v1/videos');
    expect(create.headers['idempotency-key']).toBe('turn-1:2:0');
    expect(create.form?.fields).toEqual({
      prompt: 'A slow pan over the harbour at dawn',
      model: 'sora-2',
      size: '1280x720',
      seconds: '8',
    });
    expect(retrieve).toMatchObject({ method: 'GET', path: '/v1/videos/video_1' });
    expect(download).toMatchObject({ method: 'GET', path: '/v1/videos/video_1/content?variant=video' });
  });

  it('sends the first reference as input_reference (image-to-video)', async () => {
    const { provider, server } = await setup([{ body: videoBody({ id: 'video_2', status: 'queued' }) }]);
    const reference = Buffer.from('first frame');
    await provider.submit({ ...clip, references: [{ contentType: 'image/png', bytes: reference }] }, 'ref-1');
    expect(server.requests[0].form?.files).toHaveLength(1);
    expect(server.requests[0].form?.files[0]).toMatchObject({ field: 'input_reference', contentType: 'image/png' });
    expect(server.requests[0].form?.files[0].bytes).toEqual(reference);
  });

  it('the same key again in this process returns the same video without a second create', async () => {
    const { provider, server } = await setup([{ body: videoBody({ id: 'video_3', status: 'queued' }) }]);
    await provider.submit(clip, 'k');
    await expect(provider.submit(clip, 'k')).resolves.toEqual({ upstreamJobId: 'video_3' });
    expect(server.count('POST', '/v1/videos')).toBe(1);
  });

  it('a failed video carries the upstream code and message', async () => {
    const { provider } = await setup([
      {
        body: videoBody({
          id: 'video_4',
          status: 'failed',
          progress: 12,
          error: { code: 'moderation_blocked', message: 'blocked' },
        }),
      },
    ]);
    await expect(provider.poll('video_4')).resolves.toEqual({
      upstreamJobId: 'video_4',
      status: 'failed',
      progress: 12,
      failure: { code: 'moderation_blocked', message: 'blocked' },
    });
  });

  it('the download is retried after a 503 and a dropped connection, without a second create', async () => {
    const { provider, server } = await setup([
      { body: videoBody({ id: 'video_5', status: 'queued' }) },
      { body: videoBody({ id: 'video_5', status: 'completed' }) },
      mediaErrorReply(503, 'busy', { type: 'server_error' }),
      { drop: true },
      { bytes: MP4, contentType: 'video/mp4' },
    ]);
    await provider.submit(clip, 'dl-1');
    const done = await provider.poll('video_5');
    await expect(done.result?.download()).resolves.toEqual(MP4);
    expect(server.count('POST', '/v1/videos')).toBe(1);
    expect(server.count('GET', '/v1/videos/video_5/content')).toBe(3);
  });

  it('a download refused with 404 is a non-retriable ResultDownloadError after one attempt', async () => {
    const { provider, server } = await setup([
      { body: videoBody({ id: 'video_6', status: 'completed' }) },
      mediaErrorReply(404, 'expired'),
    ]);
    const done = await provider.poll('video_6');
    await expect(done.result?.download()).rejects.toMatchObject({
      code: 'GENERATION_RESULT_DOWNLOAD_FAILED',
      retriable: false,
    });
    expect(server.count('GET', '/v1/videos/video_6/content')).toBe(1);
  });

  it('poll of an unknown video is UPSTREAM_JOB_NOT_FOUND; a 503 on poll is retried by the SDK', async () => {
    const { provider, server } = await setup(
      [
        mediaErrorReply(404, 'No video found'),
        mediaErrorReply(503, 'busy', { type: 'server_error', headers: { 'retry-after-ms': '5' } }),
        { body: videoBody({ id: 'video_7', status: 'in_progress', progress: 5 }) },
      ],
      { maxReadRetries: 1 },
    );
    await expect(provider.poll('video_nope')).rejects.toMatchObject({ code: 'UPSTREAM_JOB_NOT_FOUND' });
    await expect(provider.poll('video_7')).resolves.toMatchObject({ status: 'processing', progress: 5 });
    expect(server.requests).toHaveLength(3);
  });

  it('a poll that gets no answer is GENERATION_UNAVAILABLE (retriable), not outcome unknown', async () => {
    const { provider } = await setup([{ hang: 'before-headers' }], { timeoutMs: 200, maxReadRetries: 0 });
    await expect(provider.poll('video_8')).rejects.toMatchObject({ code: 'GENERATION_UNAVAILABLE', retriable: true });
  });

  it('429 then success: exactly one successful create, the same Idempotency-Key both times', async () => {
    const { provider, server } = await setup([
      mediaErrorReply(429, 'Rate limit reached', { type: 'requests', headers: { 'retry-after-ms': '1500' } }),
      { body: videoBody({ id: 'video_9', status: 'queued' }) },
    ]);
    await expect(provider.submit(clip, 'rl-1')).rejects.toMatchObject({
      code: 'GENERATION_RATE_LIMITED',
      retriable: true,
      retryAfterMs: 1500,
    });
    expect(server.requests).toHaveLength(1);
    await expect(provider.submit(clip, 'rl-1')).resolves.toEqual({ upstreamJobId: 'video_9' });
    expect(server.count('POST', '/v1/videos')).toBe(2);
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['rl-1', 'rl-1']);
  });

  it('400 fails cleanly with GENERATION_REJECTED after one request', async () => {
    const { provider, server } = await setup([
      mediaErrorReply(400, "Invalid 'seconds'", { code: 'invalid_value' }),
      { body: videoBody({ id: 'video_x', status: 'queued' }) },
    ]);
    await expect(provider.submit(clip, 'bad-1')).rejects.toMatchObject({ code: 'GENERATION_REJECTED', status: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it('401 is GENERATION_AUTH_FAILED', async () => {
    const { provider } = await setup([mediaErrorReply(401, 'Incorrect API key')]);
    await expect(provider.submit(clip, 'auth-1')).rejects.toMatchObject({ code: 'GENERATION_AUTH_FAILED' });
  });

  it('a create that is never answered is GENERATION_OUTCOME_UNKNOWN and is not sent again', async () => {
    const { provider, server } = await setup([{ hang: 'before-headers' }, { hang: 'before-headers' }], {
      timeoutMs: 200,
    });
    await expect(provider.submit(clip, 'hang-1')).rejects.toMatchObject({ code: 'GENERATION_OUTCOME_UNKNOWN' });
    await expect(provider.submit(clip, 'hang-1')).rejects.toMatchObject({ code: 'GENERATION_OUTCOME_UNKNOWN' });
    expect(server.requests).toHaveLength(1);
  });

  it('500 on create is GENERATION_OUTCOME_UNKNOWN with no SDK retry', async () => {
    const { provider, server } = await setup([
      mediaErrorReply(500, 'The server had an error', { type: 'server_error' }),
      { body: videoBody({ id: 'video_y', status: 'queued' }) },
    ]);
    await expect(provider.submit(clip, 'five-1')).rejects.toMatchObject({ code: 'GENERATION_OUTCOME_UNKNOWN' });
    expect(server.requests).toHaveLength(1);
  });

  it('a refused connection is GENERATION_UNAVAILABLE', async () => {
    const { provider, server } = await setup([]);
    await server.close();
    await expect(provider.submit(clip, 'refused-1')).rejects.toMatchObject({
      code: 'GENERATION_UNAVAILABLE',
      retriable: true,
    });
  });
});
