import { FakeClock, SequentialIds } from '@lomo/testing';
import { SIM_SIGNATURE_HEADER, simulatedCallbackSignature } from './callback-signing';
import {
  seededRandom,
  SimulatedUpstream,
  type SimulatedCallbackDelivery,
  type SimulatedOutcome,
} from './simulated-upstream';
import { MemorySimulatedStateStore, type SimulatedCallbackBody } from './upstream-state';
import { simulatedQuote, defaultSimulatedPrices } from './prices';

const secret = 'test-secret';

function setup(start: Parameters<SimulatedUpstream['control']>[0] = {}, store = new MemorySimulatedStateStore()) {
  const clock = new FakeClock('2026-12-01T00:00:00.000Z');
  const deliveries: SimulatedCallbackDelivery[] = [];
  const upstream = new SimulatedUpstream({
    clock,
    random: seededRandom(42),
    ids: new SequentialIds(),
    store,
    deliver: (d) => deliveries.push(d),
    start: {
      ...(start as object),
      config: {
        latencyMs: 1000,
        progressTicks: 4,
        callbackUrl: 'http://cb.test/x',
        callbackSecret: secret,
        ...(start as { config?: object }).config,
      },
    },
  });
  const bodies = () => deliveries.map((d) => JSON.parse(d.body) as SimulatedCallbackBody);
  return { clock, upstream, deliveries, bodies, store };
}

const submitRequest = (key: string, body: Record<string, unknown> = {}) => ({
  method: 'POST',
  url: '/v1/jobs',
  headers: { 'idempotency-key': key },
  body: Buffer.from(
    JSON.stringify({ kind: 'image', operation: 'image.generate', prompt: 'a fox', options: {}, ...body }),
  ),
});

function replyOf(outcome: SimulatedOutcome) {
  if (outcome.kind !== 'reply') throw new Error(`expected a reply, got ${outcome.kind}`);
  return {
    status: outcome.reply.status,
    json: outcome.reply.headers['content-type']?.startsWith('application/json')
      ? JSON.parse(outcome.reply.body.toString('utf8'))
      : undefined,
    reply: outcome.reply,
  };
}

describe('SimulatedUpstream', () => {
  it('creates one job per idempotency key and answers a repeated key with the same job', async () => {
    const { upstream } = setup();
    const first = replyOf(await upstream.handle(submitRequest('k1')));
    const second = replyOf(await upstream.handle(submitRequest('k1', { options: {} })));
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.json.id).toBe(first.json.id);
    expect(upstream.countersSnapshot()).toMatchObject({ submitRequests: 2, distinctJobs: 1, idempotentReplays: 1 });
  });

  it('refuses the same key with another request (422) and a missing key (400)', async () => {
    const { upstream } = setup();
    await upstream.handle(submitRequest('k1'));
    expect(replyOf(await upstream.handle(submitRequest('k1', { prompt: 'a wolf' }))).status).toBe(422);
    expect(replyOf(await upstream.handle({ ...submitRequest('x'), headers: {} })).status).toBe(400);
    expect(replyOf(await upstream.handle(submitRequest('k2', { kind: 'smell' }))).status).toBe(400);
    expect(upstream.countersSnapshot().distinctJobs).toBe(1);
  });

  it('moves a job through evenly spaced signed progress callbacks to completed, by the clock only', async () => {
    const { upstream, clock, bodies, deliveries } = setup();
    const { json } = replyOf(await upstream.handle(submitRequest('k1')));
    expect(json).toMatchObject({ status: 'queued', progress: 0, units: 1, amountMinor: 4, currency: 'USD' });
    clock.advance(199);
    upstream.step();
    expect(deliveries).toHaveLength(0);
    clock.advance(1);
    upstream.step();
    expect(bodies().map((b) => [b.status, b.progress, b.sequence])).toEqual([['processing', 20, 1]]);
    clock.advance(800);
    upstream.step();
    expect(bodies().map((b) => [b.type, b.progress, b.sequence])).toEqual([
      ['job.progress', 20, 1],
      ['job.progress', 40, 2],
      ['job.progress', 60, 3],
      ['job.progress', 80, 4],
      ['job.completed', 100, 5],
    ]);
    const d = deliveries[0];
    const ts = Number(d.headers['x-sim-timestamp']);
    expect(d.headers[SIM_SIGNATURE_HEADER]).toBe(simulatedCallbackSignature(secret, d.eventId, ts, d.body));
    expect(d.eventId).toBe(`${json.id}.1`);
    const polled = replyOf(
      await upstream.handle({ method: 'GET', url: `/v1/jobs/${json.id}`, headers: {}, body: Buffer.alloc(0) }),
    );
    expect(polled.json).toMatchObject({ status: 'completed', progress: 100, sequence: 5 });
    const content = replyOf(
      await upstream.handle({ method: 'GET', url: polled.json.result.url, headers: {}, body: Buffer.alloc(0) }),
    );
    expect(content.reply.headers['content-type']).toBe('image/png');
    expect(content.reply.body.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('fails the share of jobs failureRate says, decided by the injected random', async () => {
    const { upstream, clock, bodies } = setup({ config: { failureRate: 1 } });
    await upstream.handle(submitRequest('k1'));
    clock.advance(1000);
    upstream.step();
    expect(bodies().at(-1)).toMatchObject({
      type: 'job.failed',
      status: 'failed',
      failure: { code: 'SIMULATED_FAILURE' },
    });
  });

  it('duplicateCallbacks sends each delivery twice with the same event id', async () => {
    const { upstream, clock, deliveries } = setup({ faults: { duplicateCallbacks: true } });
    await upstream.handle(submitRequest('k1'));
    clock.advance(1000);
    upstream.step();
    expect(deliveries).toHaveLength(10);
    for (let i = 0; i < 10; i += 2) expect(deliveries[i]).toEqual(deliveries[i + 1]);
    expect(upstream.countersSnapshot()).toMatchObject({ callbacksEmitted: 5, callbacksSent: 10 });
  });

  it('outOfOrderProgress holds progress, sends it shuffled around the terminal one, one late processing after it', async () => {
    const { upstream, clock, bodies } = setup({ faults: { outOfOrderProgress: true } });
    await upstream.handle(submitRequest('k1'));
    clock.advance(500);
    upstream.step();
    expect(bodies()).toHaveLength(0);
    clock.advance(500);
    upstream.step();
    const seen = bodies();
    expect(seen).toHaveLength(5);
    expect(seen.at(-2)?.status).toBe('completed');
    expect(seen.at(-1)?.status).toBe('processing');
    const progressSeqs = seen.filter((b) => b.type === 'job.progress').map((b) => b.sequence);
    expect(progressSeqs).not.toEqual([1, 2, 3, 4]);
    expect([...progressSeqs].sort()).toEqual([1, 2, 3, 4]);
  });

  it('lostCallbacks sends nothing while polling still finds the result', async () => {
    const { upstream, clock, deliveries } = setup({ faults: { lostCallbacks: true } });
    const { json } = replyOf(await upstream.handle(submitRequest('k1')));
    clock.advance(1000);
    const polled = replyOf(
      await upstream.handle({ method: 'GET', url: `/v1/jobs/${json.id}`, headers: {}, body: Buffer.alloc(0) }),
    );
    expect(polled.json.status).toBe('completed');
    expect(deliveries).toHaveLength(0);
    expect(upstream.countersSnapshot().callbacksLost).toBe(5);
  });

  it('failNextSubmitWith fails that many submits before creating anything, with Retry-After on a 429', async () => {
    const { upstream } = setup({ faults: { failNextSubmitWith: 429, retryAfterSeconds: 3 } });
    const first = replyOf(await upstream.handle(submitRequest('k1')));
    expect(first.status).toBe(429);
    expect(first.reply.headers['retry-after']).toBe('3');
    expect(replyOf(await upstream.handle(submitRequest('k1'))).status).toBe(201);
    upstream.control({ faults: { failNextSubmitWith: 'refuse' } });
    expect((await upstream.handle(submitRequest('k2'))).kind).toBe('refuse');
    expect(upstream.countersSnapshot()).toMatchObject({ submitRequests: 2, distinctJobs: 1 });
  });

  it('timeoutAfterCreate creates the job and withholds the answer', async () => {
    const { upstream } = setup({ faults: { timeoutAfterCreate: true } });
    const outcome = await upstream.handle(submitRequest('k1'));
    expect(outcome).toMatchObject({ kind: 'hang', afterMs: null });
    expect(upstream.countersSnapshot().distinctJobs).toBe(1);
    const found = replyOf(
      await upstream.handle({ method: 'GET', url: '/v1/jobs?idempotencyKey=k1', headers: {}, body: Buffer.alloc(0) }),
    );
    expect(found.json.idempotencyKey).toBe('k1');
  });

  it('cancels a running job once (a cancelled callback) and leaves a finished one alone', async () => {
    const { upstream, bodies, clock } = setup();
    const { json } = replyOf(await upstream.handle(submitRequest('k1')));
    const cancel = { method: 'POST', url: `/v1/jobs/${json.id}/cancel`, headers: {}, body: Buffer.alloc(0) };
    expect(replyOf(await upstream.handle(cancel)).json.status).toBe('cancelled');
    expect(replyOf(await upstream.handle(cancel)).json.status).toBe('cancelled');
    clock.advance(5000);
    upstream.step();
    expect(bodies().map((b) => b.type)).toEqual(['job.cancelled']);
  });

  it('continues its jobs from the stored state after a restart, on the clock', async () => {
    const store = new MemorySimulatedStateStore();
    const a = setup({}, store);
    const { json } = replyOf(await a.upstream.handle(submitRequest('k1')));
    a.clock.advance(400);
    a.upstream.step();
    const b = new SimulatedUpstream({
      clock: a.clock,
      store,
      deliver: (d) => a.deliveries.push(d),
      start: { config: { callbackUrl: 'http://cb.test/x', callbackSecret: secret } },
    });
    expect(b.job(json.id)).toMatchObject({ status: 'processing', emittedTicks: 2 });
    a.clock.advance(600);
    b.step();
    expect(a.bodies().map((x) => x.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(replyOf(await b.handle(submitRequest('k1'))).json.id).toBe(json.id);
    expect(b.countersSnapshot()).toMatchObject({ submitRequests: 2, distinctJobs: 1 });
  });

  it('records the price the shared table gives, per unit kind', async () => {
    const { upstream } = setup();
    const video = replyOf(
      await upstream.handle(submitRequest('v', { kind: 'video', options: { durationSeconds: 2.5 } })),
    );
    expect(video.json).toMatchObject({ units: 3, unit: 'second', amountMinor: 30 });
    expect(
      simulatedQuote('simulated', { kind: 'video', options: { durationSeconds: 2.5 } }, defaultSimulatedPrices, 'USD'),
    ).toMatchObject({
      units: 3,
      amountMinor: video.json.amountMinor,
    });
  });
});
