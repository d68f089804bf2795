import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  GenerationOutcomeUnknownError,
  GenerationRateLimitedError,
  GenerationRejectedError,
  GenerationUnavailableError,
  type GenerationParams,
  type UpstreamCallbackEvent,
} from '../provider';
import {
  startCallbackReceiver,
  startSimUpstreamProcess,
  type CallbackReceiver,
  type SimUpstreamProcess,
} from '../testing';
import { SimulatedGenerationProvider } from './simulated-generation-provider';
import { simulatedMedia } from '.';

jest.setTimeout(60_000);

const secret = 'int-spec-secret';
const image: GenerationParams = {
  kind: 'image',
  operation: 'image.generate',
  prompt: 'a harbour at dusk',
  options: {},
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('simulated upstream as a real process', () => {
  let dir: string;
  let receiver: CallbackReceiver;
  let sim: SimUpstreamProcess;
  let provider: SimulatedGenerationProvider;

  /** Verified callbacks of one job: jobs of earlier tests may still be calling back. */
  const verified = (jobId: string): UpstreamCallbackEvent[] =>
    receiver.received
      .map((r) => provider.verifyCallback(r.headers, r.rawBody))
      .filter((e) => e.upstreamJobId === jobId);
  const arrived = (jobId: string, count: number, what: string) =>
    receiver.waitFor(() => verified(jobId).length >= count, what);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sim-int-'));
    receiver = await startCallbackReceiver();
    sim = await startSimUpstreamProcess({
      port: await freePort(),
      stateFile: path.join(dir, 'state.json'),
      start: { config: { latencyMs: 600, progressTicks: 3, callbackUrl: receiver.url, callbackSecret: secret } },
    });
    provider = new SimulatedGenerationProvider({ baseUrl: sim.url, callbackSecret: secret, requestTimeoutMs: 1500 });
  });

  afterAll(async () => {
    await sim?.stop();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await sim.control({ resetFaults: true, resetCounters: true });
    receiver.received.length = 0;
  });

  it('submit -> verified progress callbacks -> completed -> the download is a valid PNG', async () => {
    const { upstreamJobId } = await provider.submit(image, 'int-happy');
    await arrived(upstreamJobId, 4, 'progress and completed callbacks');
    const events = verified(upstreamJobId);
    expect(events.map((e) => [e.status, e.progress, e.sequence])).toEqual([
      ['processing', 25, 1],
      ['processing', 50, 2],
      ['processing', 75, 3],
      ['completed', 100, 4],
    ]);
    const state = await provider.poll(upstreamJobId);
    expect(state.status).toBe('completed');
    const png = await state.result!.download();
    const info = simulatedMedia.inspectPng(png);
    expect(info.signatureValid).toBe(true);
    expect(info.chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(info.chunks.every((c) => c.crcValid)).toBe(true);
  });

  it('the same idempotency key twice gives one job (counter endpoint)', async () => {
    const a = await provider.submit(image, 'int-same-key');
    const b = await provider.submit(image, 'int-same-key');
    expect(b.upstreamJobId).toBe(a.upstreamJobId);
    expect(await sim.counters()).toMatchObject({ submitRequests: 2, idempotentReplays: 1 });
    const jobs = (await (await fetch(`${sim.url}/control/jobs`)).json()) as Array<{ idempotencyKey: string }>;
    expect(jobs.filter((j) => j.idempotencyKey === 'int-same-key')).toHaveLength(1);
  });

  it('duplicateCallbacks: every callback arrives twice with the same event id', async () => {
    await sim.control({ faults: { duplicateCallbacks: true } });
    const { upstreamJobId } = await provider.submit(image, 'int-dup');
    await arrived(upstreamJobId, 8, 'duplicated callbacks');
    const ids = verified(upstreamJobId).map((e) => e.eventId);
    expect(ids).toHaveLength(8);
    for (let i = 0; i < ids.length; i += 2) expect(ids[i + 1]).toBe(ids[i]);
    expect(new Set(ids).size).toBe(4);
  });

  it('outOfOrderProgress: shuffled progress and a late processing after completed', async () => {
    await sim.control({ faults: { outOfOrderProgress: true } });
    const { upstreamJobId } = await provider.submit(image, 'int-ooo');
    await arrived(upstreamJobId, 4, 'out-of-order callbacks');
    const events = verified(upstreamJobId);
    expect(events.at(-2)?.status).toBe('completed');
    expect(events.at(-1)?.status).toBe('processing');
    expect(events.filter((e) => e.status === 'processing').map((e) => e.sequence)).not.toEqual([1, 2, 3]);
  });

  it('lostCallbacks: nothing arrives, polling finds the result', async () => {
    await sim.control({ faults: { lostCallbacks: true } });
    const { upstreamJobId } = await provider.submit(image, 'int-lost');
    const state = await until(
      () => provider.poll(upstreamJobId),
      (s) => s.status === 'completed',
      'completion by polling',
    );
    expect(state.result?.contentType).toBe('image/png');
    await new Promise((r) => setTimeout(r, 200));
    expect(verified(upstreamJobId)).toHaveLength(0);
    expect((await sim.counters()).callbacksLost).toBeGreaterThanOrEqual(4);
  });

  it('429 then success: rate limited with retry-after, then the job is created', async () => {
    await sim.control({ faults: { failNextSubmitWith: 429, retryAfterSeconds: 2 } });
    const limited = await rejection(provider.submit(image, 'int-429'));
    expect(limited).toBeInstanceOf(GenerationRateLimitedError);
    expect(limited).toMatchObject({ retriable: true, retryAfterMs: 2000 });
    await expect(provider.submit(image, 'int-429')).resolves.toHaveProperty('upstreamJobId');
    expect(await sim.counters()).toMatchObject({ submitRequests: 2, idempotentReplays: 0 });
  });

  it('400 is GenerationRejectedError and creates nothing', async () => {
    const before = (await sim.counters()).distinctJobs;
    await sim.control({ faults: { failNextSubmitWith: 400 } });
    const rejected = await rejection(provider.submit(image, 'int-400'));
    expect(rejected).toBeInstanceOf(GenerationRejectedError);
    expect(rejected).toMatchObject({ status: 400 });
    expect((await sim.counters()).distinctJobs).toBe(before);
  });

  it('a 500 after sending is GenerationOutcomeUnknownError', async () => {
    await sim.control({ faults: { failNextSubmitWith: 500 } });
    expect(await rejection(provider.submit(image, 'int-500'))).toBeInstanceOf(GenerationOutcomeUnknownError);
  });

  it('video, audio and 3d results are a GIF, a WAV and a glTF', async () => {
    await sim.control({ config: { latencyMs: 0 } });
    const kinds: Array<[GenerationParams['kind'], string]> = [
      ['video', 'image/gif'],
      ['audio', 'audio/wav'],
      ['3d', 'model/gltf+json'],
    ];
    for (const [kind, contentType] of kinds) {
      const { upstreamJobId } = await provider.submit({ ...image, kind, operation: `${kind}.generate` }, `int-${kind}`);
      const state = await until(
        () => provider.poll(upstreamJobId),
        (s) => s.status === 'completed',
        `${kind} result`,
      );
      expect(state.result?.contentType).toBe(contentType);
      const bytes = await state.result!.download();
      if (kind === 'video') expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
      if (kind === 'audio') expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
      if (kind === '3d') expect(JSON.parse(bytes.toString('utf8')).asset.version).toBe('2.0');
    }
    await sim.control({ config: { latencyMs: 600 } });
  });

  it('timeoutAfterCreate: outcome unknown, and the job exists upstream', async () => {
    await sim.control({ faults: { timeoutAfterCreate: true } });
    const unknown = await rejection(provider.submit(image, 'int-timeout'));
    expect(unknown).toBeInstanceOf(GenerationOutcomeUnknownError);
    const found = await fetch(`${sim.url}/v1/jobs?idempotencyKey=int-timeout`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ idempotencyKey: 'int-timeout' });
  });

  it("failNextSubmitWith 'refuse': ECONNREFUSED is GenerationUnavailableError, then it accepts again", async () => {
    await sim.control({ faults: { failNextSubmitWith: 'refuse', refuseMs: 500 } });
    await new Promise((r) => setTimeout(r, 50));
    const refused = await rejection(provider.submit(image, 'int-refuse'));
    expect(refused).toBeInstanceOf(GenerationUnavailableError);
    await new Promise((r) => setTimeout(r, 700));
    await expect(provider.submit(image, 'int-refuse')).resolves.toHaveProperty('upstreamJobId');
  });

  it('its state survives a crash (SIGKILL) and restart of the process', async () => {
    await sim.control({ config: { latencyMs: 1500 } });
    const { upstreamJobId } = await provider.submit(image, 'int-restart');
    const countersBefore = await sim.counters();
    sim = await sim.restart('SIGKILL');
    // Nobody listens while it is down: nothing was sent, so no job can exist.
    const state = await until(
      () => provider.poll(upstreamJobId),
      (s) => s.status === 'completed',
      'completion after restart',
    );
    expect(state.progress).toBe(100);
    expect((await provider.submit(image, 'int-restart')).upstreamJobId).toBe(upstreamJobId);
    const after = await sim.counters();
    expect(after.distinctJobs).toBe(countersBefore.distinctJobs);
    await sim.control({ config: { latencyMs: 600 } });
  });

  it('a stopped upstream is a refused connection: GenerationUnavailableError', async () => {
    const port = await freePort();
    const nobody = new SimulatedGenerationProvider({ baseUrl: `http://127.0.0.1:${port}`, callbackSecret: secret });
    expect(await rejection(nobody.submit(image, 'int-nobody'))).toBeInstanceOf(GenerationUnavailableError);
  });
});
