import { FakeClock } from '@lomo/testing';
import { createInProcessSimulatedProvider, inProcessCallbackSecret } from '../testing';
import {
  CallbackRejectedError,
  GenerationAuthFailedError,
  GenerationOutcomeUnknownError,
  GenerationRateLimitedError,
  GenerationRejectedError,
  GenerationUnavailableError,
  ResultDownloadError,
  UpstreamJobNotFoundError,
  type GenerationParams,
} from '../provider';
import { simulatedCallbackSignature } from './callback-signing';
import { SimulatedGenerationProvider } from './simulated-generation-provider';
import { simulatedMedia } from '.';

const image: GenerationParams = {
  kind: 'image',
  operation: 'image.generate',
  prompt: 'a lighthouse',
  options: { size: '32x16' },
};

function make(start = {}) {
  const clock = new FakeClock('2026-12-01T00:00:00.000Z');
  const sim = createInProcessSimulatedProvider({
    clock,
    start: { config: { latencyMs: 1000, progressTicks: 2 }, ...start },
  });
  return { clock, ...sim };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('SimulatedGenerationProvider (in-process upstream)', () => {
  it('submits, verifies the callbacks, polls to completed and downloads a valid PNG', async () => {
    const { provider, clock, upstream, deliveries } = make();
    const { upstreamJobId } = await provider.submit(image, 'call-1');
    clock.advance(1000);
    upstream.step();
    const events = deliveries.map((d) => provider.verifyCallback(d.headers, Buffer.from(d.body)));
    expect(events.map((e) => [e.status, e.sequence])).toEqual([
      ['processing', 1],
      ['processing', 2],
      ['completed', 3],
    ]);
    expect(events.every((e) => e.upstreamJobId === upstreamJobId)).toBe(true);
    const state = await provider.poll(upstreamJobId);
    expect(state).toMatchObject({ status: 'completed', progress: 100, result: { contentType: 'image/png' } });
    const png = await state.result!.download();
    expect(simulatedMedia.inspectPng(png)).toMatchObject({ signatureValid: true, width: 32, height: 16 });
  });

  it('quotes what the upstream records', async () => {
    const { provider, upstream } = make();
    const params: GenerationParams = {
      kind: 'audio',
      operation: 'audio.generate',
      prompt: 'rain',
      options: { seconds: 12 },
    };
    const quote = provider.quote(params);
    expect(quote).toEqual({
      provider: 'simulated',
      units: 12,
      unit: 'second',
      unitPriceMinor: 1,
      amountMinor: 12,
      currency: 'USD',
    });
    const { upstreamJobId } = await provider.submit(params, 'k');
    expect(upstream.job(upstreamJobId)?.amountMinor).toBe(quote.amountMinor);
    expect(() => provider.quote({ ...params, options: { seconds: -1 } })).toThrow(GenerationRejectedError);
  });

  it('maps 429 (with Retry-After), 400, 401/403 and 5xx of a submit', async () => {
    const { provider, upstream } = make();
    upstream.control({ faults: { failNextSubmitWith: 429, retryAfterSeconds: 2 } });
    const limited = await rejection(provider.submit(image, 'k'));
    expect(limited).toBeInstanceOf(GenerationRateLimitedError);
    expect((limited as GenerationRateLimitedError).retryAfterMs).toBe(2000);
    await expect(provider.submit(image, 'k')).resolves.toHaveProperty('upstreamJobId');
    upstream.control({ faults: { failNextSubmitWith: 400 } });
    expect(await rejection(provider.submit(image, 'k2'))).toBeInstanceOf(GenerationRejectedError);
    upstream.control({ faults: { failNextSubmitWith: 403 } });
    expect(await rejection(provider.submit(image, 'k2'))).toBeInstanceOf(GenerationAuthFailedError);
    upstream.control({ faults: { failNextSubmitWith: 500 } });
    expect(await rejection(provider.submit(image, 'k2'))).toBeInstanceOf(GenerationOutcomeUnknownError);
    expect(await rejection(provider.submit({ ...image, options: { n: 99 } }, 'k3'))).toBeInstanceOf(
      GenerationRejectedError,
    );
  });

  it('a wrong API key is GenerationAuthFailedError', async () => {
    const { upstream, fetch } = make({ config: { apiKey: 'right' } });
    const wrong = new SimulatedGenerationProvider({
      baseUrl: 'http://sim-upstream.in-process',
      apiKey: 'wrong',
      fetch,
    });
    expect(await rejection(wrong.submit(image, 'k'))).toBeInstanceOf(GenerationAuthFailedError);
    expect(upstream.countersSnapshot().distinctJobs).toBe(0);
  });

  it('a refused connection is GenerationUnavailableError and a withheld answer GenerationOutcomeUnknownError', async () => {
    const { provider, upstream } = make();
    upstream.control({ faults: { failNextSubmitWith: 'refuse' } });
    const refused = await rejection(provider.submit(image, 'k'));
    expect(refused).toBeInstanceOf(GenerationUnavailableError);
    expect((refused as GenerationUnavailableError).retriable).toBe(true);
    upstream.control({ faults: { timeoutAfterCreate: true } });
    expect(await rejection(provider.submit(image, 'k'))).toBeInstanceOf(GenerationOutcomeUnknownError);
    expect(upstream.allJobs().map((j) => j.idempotencyKey)).toEqual(['k']);
  });

  it('poll of an unknown job is UpstreamJobNotFoundError; a 5xx download is a retriable ResultDownloadError', async () => {
    const { provider, clock, upstream } = make();
    expect(await rejection(provider.poll('nope'))).toBeInstanceOf(UpstreamJobNotFoundError);
    const { upstreamJobId } = await provider.submit(image, 'k');
    clock.advance(1000);
    const state = await provider.poll(upstreamJobId);
    upstream.control({ faults: { failNextDownloadWith: 503 } });
    const failed = await rejection(state.result!.download());
    expect(failed).toBeInstanceOf(ResultDownloadError);
    expect((failed as ResultDownloadError).retriable).toBe(true);
    upstream.control({ faults: { failNextDownloadWith: 404 } });
    expect(await rejection(state.result!.download())).toMatchObject({ retriable: false });
    expect(simulatedMedia.inspectPng(await state.result!.download()).signatureValid).toBe(true);
  });

  describe('verifyCallback', () => {
    function signed(body: string, at: number, eventId = 'simjob_1.1') {
      const ts = Math.floor(at / 1000);
      return {
        headers: {
          'x-sim-event-id': eventId,
          'x-sim-timestamp': String(ts),
          'x-sim-signature': simulatedCallbackSignature(inProcessCallbackSecret, eventId, ts, body),
        },
        body: Buffer.from(body),
      };
    }
    const body = JSON.stringify({
      eventId: 'simjob_1.1',
      type: 'job.progress',
      jobId: 'simjob_1',
      status: 'processing',
      progress: 50,
      sequence: 1,
      occurredAt: 'x',
    });

    it('accepts a good signature and returns the event id (dedupe is the job service’s)', () => {
      const { provider, clock } = make();
      const { headers, body: raw } = signed(body, clock.now().getTime());
      expect(provider.verifyCallback(headers, raw)).toEqual({
        eventId: 'simjob_1.1',
        upstreamJobId: 'simjob_1',
        status: 'processing',
        progress: 50,
        sequence: 1,
        failure: undefined,
      });
      expect(provider.verifyCallback(headers, raw).eventId).toBe('simjob_1.1');
    });

    it('rejects a re-serialized body, a wrong secret and a missing signature as CALLBACK_BAD_SIGNATURE', () => {
      const { provider, clock } = make();
      const { headers } = signed(body, clock.now().getTime());
      const reserialized = Buffer.from(JSON.stringify(JSON.parse(body), null, 2));
      const code = (f: () => unknown) => {
        try {
          f();
        } catch (e) {
          return (e as CallbackRejectedError).code;
        }
        return 'accepted';
      };
      expect(code(() => provider.verifyCallback(headers, reserialized))).toBe('CALLBACK_BAD_SIGNATURE');
      const reordered = Buffer.from(JSON.stringify({ jobId: 'simjob_1', ...JSON.parse(body) }));
      expect(code(() => provider.verifyCallback(headers, reordered))).toBe('CALLBACK_BAD_SIGNATURE');
      expect(code(() => provider.verifyCallback({ ...headers, 'x-sim-signature': undefined }, Buffer.from(body)))).toBe(
        'CALLBACK_BAD_SIGNATURE',
      );
      expect(code(() => provider.verifyCallback({ ...headers, 'x-sim-signature': 'v1=00' }, Buffer.from(body)))).toBe(
        'CALLBACK_BAD_SIGNATURE',
      );
    });

    it('rejects a stale (or future) timestamp with CALLBACK_STALE_TIMESTAMP on the injected clock', () => {
      const { provider, clock } = make();
      const { headers, body: raw } = signed(body, clock.now().getTime());
      clock.advance(5 * 60_000 + 1000);
      expect(() => provider.verifyCallback(headers, raw)).toThrow(
        expect.objectContaining({ code: 'CALLBACK_STALE_TIMESTAMP', httpStatus: 401 }),
      );
      const future = signed(body, clock.now().getTime() + 10 * 60_000);
      expect(() => provider.verifyCallback(future.headers, future.body)).toThrow(
        expect.objectContaining({ code: 'CALLBACK_STALE_TIMESTAMP' }),
      );
    });

    it('rejects signed garbage and a body naming another event as CALLBACK_MALFORMED (400)', () => {
      const { provider, clock } = make();
      const garbage = signed('{not json', clock.now().getTime());
      expect(() => provider.verifyCallback(garbage.headers, garbage.body)).toThrow(
        expect.objectContaining({ code: 'CALLBACK_MALFORMED', httpStatus: 400 }),
      );
      const other = signed(body, clock.now().getTime(), 'simjob_1.2');
      expect(() => provider.verifyCallback(other.headers, other.body)).toThrow(
        expect.objectContaining({ code: 'CALLBACK_MALFORMED' }),
      );
    });
  });
});
