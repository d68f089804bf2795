import OpenAI from 'openai';
import { signStandardWebhook } from '../testing/fake-openai-media-server';
import { OpenAiVideosProvider } from './openai-videos-provider';

// A Standard Webhooks secret: `whsec_` + base64 of the key bytes.
const SECRET = `whsec_${Buffer.from('a-test-signing-key-of-32-bytes!!').toString('base64')}`;
const NOW_MS = 1_760_000_000_000;
const NOW_S = NOW_MS / 1000;

const completed = JSON.stringify({
  id: 'evt_1',
  object: 'event',
  type: 'video.completed',
  created_at: NOW_S - 2,
  data: { id: 'video_1' },
});

function provider(nowMs = NOW_MS) {
  // No socket is opened: verification is local.
  return new OpenAiVideosProvider({ apiKey: 'sk-test', webhookSecret: SECRET, now: () => nowMs });
}

const signed = (body: string, options: { id?: string; at?: number } = {}) =>
  signStandardWebhook(SECRET, { id: options.id ?? 'msg_1', timestampSeconds: options.at ?? NOW_S, body });

describe('OpenAiVideosProvider.verifyCallback (OpenAI webhooks, Standard Webhooks signing)', () => {
  it('says it sends callbacks only when a webhook secret is configured', () => {
    expect(provider().sendsCallbacks).toBe(true);
    expect(new OpenAiVideosProvider({ apiKey: 'sk-test' }).sendsCallbacks).toBe(false);
  });

  it('accepts a correctly signed video.completed and maps it; eventId is the webhook-id', () => {
    expect(provider().verifyCallback(signed(completed), Buffer.from(completed))).toEqual({
      eventId: 'msg_1',
      upstreamJobId: 'video_1',
      status: 'completed',
      progress: 100,
      sequence: NOW_S - 2,
    });
  });

  it('verifies what the SDK verifies: the same delivery passes client.webhooks.unwrap', async () => {
    const at = Math.floor(Date.now() / 1000);
    const headers = signed(completed, { at });
    const client = new OpenAI({ apiKey: 'sk-test', webhookSecret: SECRET });
    await expect(client.webhooks.unwrap(completed, headers)).resolves.toMatchObject({ type: 'video.completed' });
    expect(provider(at * 1000).verifyCallback(headers, Buffer.from(completed)).upstreamJobId).toBe('video_1');
  });

  it('maps video.failed to a failed event', () => {
    const body = JSON.stringify({ id: 'evt_2', type: 'video.failed', created_at: NOW_S, data: { id: 'video_2' } });
    expect(provider().verifyCallback(signed(body, { id: 'msg_2' }), Buffer.from(body))).toMatchObject({
      eventId: 'msg_2',
      upstreamJobId: 'video_2',
      status: 'failed',
      failure: { code: 'upstream_failed' },
    });
  });

  it('accepts a delivery where one of several signatures matches (secret rotation)', () => {
    const headers = signed(completed);
    const rotated = {
      ...headers,
      'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}`,
    };
    expect(provider().verifyCallback(rotated, Buffer.from(completed)).eventId).toBe('msg_1');
  });

  it('rejects a tampered body with CALLBACK_BAD_SIGNATURE (401)', () => {
    const tampered = completed.replace('video_1', 'video_9');
    expect(() => provider().verifyCallback(signed(completed), Buffer.from(tampered))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_BAD_SIGNATURE', httpStatus: 401 }),
    );
  });

  it('rejects a re-serialized body (same JSON, different bytes) with CALLBACK_BAD_SIGNATURE', () => {
    const reserialized = JSON.stringify(JSON.parse(completed), null, 2);
    expect(JSON.parse(reserialized)).toEqual(JSON.parse(completed));
    expect(() => provider().verifyCallback(signed(completed), Buffer.from(reserialized))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_BAD_SIGNATURE' }),
    );
  });

  it('rejects a signature made with another secret, and a missing signature', () => {
    const other = signStandardWebhook('whsec_' + Buffer.from('another key').toString('base64'), {
      id: 'msg_1',
      timestampSeconds: NOW_S,
      body: completed,
    });
    expect(() => provider().verifyCallback(other, Buffer.from(completed))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_BAD_SIGNATURE' }),
    );
    const { 'webhook-signature': _omitted, ...unsigned } = signed(completed);
    expect(() => provider().verifyCallback(unsigned, Buffer.from(completed))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_BAD_SIGNATURE' }),
    );
  });

  it('rejects a correctly signed but stale delivery with CALLBACK_STALE_TIMESTAMP, and one from the future', () => {
    const old = signed(completed, { at: NOW_S - 301 });
    expect(() => provider().verifyCallback(old, Buffer.from(completed))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_STALE_TIMESTAMP', httpStatus: 401 }),
    );
    const future = signed(completed, { at: NOW_S + 301 });
    expect(() => provider().verifyCallback(future, Buffer.from(completed))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_STALE_TIMESTAMP' }),
    );
    // Within the SDK's 300 s tolerance it is fine.
    expect(provider().verifyCallback(signed(completed, { at: NOW_S - 299 }), Buffer.from(completed)).status).toBe(
      'completed',
    );
  });

  it('moving the injected clock makes a once-fresh delivery stale', () => {
    const headers = signed(completed);
    expect(provider(NOW_MS).verifyCallback(headers, Buffer.from(completed)).eventId).toBe('msg_1');
    expect(() => provider(NOW_MS + 301_000).verifyCallback(headers, Buffer.from(completed))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_STALE_TIMESTAMP' }),
    );
  });

  it.each([
    ['a body that is not JSON', 'not json'],
    ['an event without data.id', JSON.stringify({ id: 'evt', type: 'video.completed', data: {} })],
    [
      'an event that is not about a video',
      JSON.stringify({ id: 'evt', type: 'response.completed', data: { id: 'r' } }),
    ],
  ])('rejects %s, correctly signed, with CALLBACK_MALFORMED (400)', (_label, body) => {
    expect(() => provider().verifyCallback(signed(body), Buffer.from(body))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_MALFORMED', httpStatus: 400 }),
    );
  });

  it('rejects missing or unreadable webhook-id / webhook-timestamp with CALLBACK_MALFORMED', () => {
    const headers = signed(completed);
    const { 'webhook-id': _id, ...noId } = headers;
    expect(() => provider().verifyCallback(noId, Buffer.from(completed))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_MALFORMED' }),
    );
    expect(() =>
      provider().verifyCallback({ ...headers, 'webhook-timestamp': 'yesterday' }, Buffer.from(completed)),
    ).toThrow(expect.objectContaining({ code: 'CALLBACK_MALFORMED' }));
  });

  it('reads headers case-insensitively', () => {
    const headers = Object.fromEntries(Object.entries(signed(completed)).map(([k, v]) => [k.toUpperCase(), v]));
    expect(provider().verifyCallback(headers, Buffer.from(completed)).eventId).toBe('msg_1');
  });

  it('rejects every delivery when no secret is configured', () => {
    const unconfigured = new OpenAiVideosProvider({ apiKey: 'sk-test' });
    expect(() => unconfigured.verifyCallback(signed(completed), Buffer.from(completed))).toThrow(
      expect.objectContaining({ code: 'CALLBACK_BAD_SIGNATURE' }),
    );
  });
});
