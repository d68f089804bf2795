import { waitFor } from '@lomo/bus/testing';
import type { EventEnvelope } from '@lomo/contracts';
import { startSimUpstreamProcess, type SimUpstreamProcess } from '@lomo/generation/testing';
import { gqlData } from './api-client';
import { Drill } from './drill';

jest.setTimeout(420_000);

const secret = 'drill-generation-callback-secret';
const requests = [
  'Make a poster of the harbour at dawn',
  'Draw a picture of a red fox sleeping in the snow',
  'Generate an image of a lighthouse on a stormy night',
];
const JOBS = requests.length;

/**
 * Issue 15's distributed drill: apps/generation as its own process on Kafka (with relay, router,
 * projector, executor and API processes, the simulated upstream its own process too). The upstream
 * loses every callback, so the generation process follows the jobs by polling; it is SIGKILLed
 * while the jobs run upstream and a new one is started. Every job completes once, one charge each.
 * The three requests are about different subjects, so routing makes three tasks: a follow-up
 * routed to a task whose turn waits on its job would wait for that job (its inbox is read at the
 * next step), and its own job would start only when the first ended.
 */
describe('multi-process deployment: generation SIGKILL mid-poll', () => {
  const drill = new Drill({ LOMO_GENERATION_SILENCE_MS: '1000' });
  let upstream: SimUpstreamProcess;

  beforeAll(async () => {
    upstream = await startSimUpstreamProcess({
      start: {
        config: { latencyMs: 30_000, progressTicks: 6, callbackSecret: secret },
        faults: { lostCallbacks: true },
      },
    });
    await drill.start({ relays: 1, executors: 1, apis: 1 });
  }, 300_000);

  afterAll(async () => {
    await drill.stop();
    await upstream?.dispose();
  }, 60_000);

  const startGeneration = (name: string) =>
    drill.cluster.start(name, 'generation', {
      LOMO_SIM_UPSTREAM_URL: upstream.url,
      LOMO_GENERATION_CALLBACK_SECRET: secret,
    });
  const ofType = (events: EventEnvelope[], type: string) => events.filter((e) => e.type === type);

  it('after a SIGKILL while every job is polled, a new generation process completes each job once with one charge', async () => {
    const started = Date.now();
    const first = await startGeneration('generation-1');
    const token = await drill.newToken('ws_generation_drill');
    const api = drill.api();
    await gqlData(
      api,
      token,
      'mutation { approveBudget(amountMinor: 1000, currency: "USD", requestKey: "drill") { changed } }',
    );
    await gqlData(
      api,
      token,
      'mutation { setSpendingLimits(currency: "USD", perCallAutoApproveMinor: 100, dailyAutoApproveMinor: 1000, timeZone: "UTC") { changed } }',
    );
    for (const request of requests) await drill.send(token, request);

    // Every job sent upstream and its id recorded, none finished: the process is polling them.
    await waitFor(
      async () => ofType(await drill.events(), 'GenerationSubmitted').length === JOBS,
      'every job submitted',
      120_000,
      200,
    );
    const atSubmission = await drill.events();
    const tasks = new Set(
      ofType(atSubmission, 'GenerationRequested').map((e) => (e.data as { taskId: string }).taskId),
    );
    expect(tasks.size).toBe(JOBS);
    // On failure, when each job was asked for, submitted and (too early) completed.
    const timeline = ['GenerationRequested', 'GenerationSubmitted', 'GenerationCompleted'].map((type) =>
      ofType(atSubmission, type).map((e) => `${type} ${e.metadata.streamId.slice(-4)} ${e.metadata.occurredAt}`),
    );
    expect({ completed: ofType(atSubmission, 'GenerationCompleted').length, timeline }).toEqual({
      completed: 0,
      timeline,
    });
    const polledBefore = (await upstream.counters()).pollRequests;
    await waitFor(async () => (await upstream.counters()).pollRequests > polledBefore, 'a poll', 10_000, 100);
    first.signal('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    await startGeneration('generation-2');
    await waitFor(
      async () => ofType(await drill.events(), 'GenerationCompleted').length >= JOBS,
      'every job completed after the restart',
      120_000,
      250,
    );
    // Late duplicates would show up within a few polls.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const events = await drill.events();
    const jobs = [...new Set(ofType(events, 'GenerationRequested').map((e) => e.metadata.streamId))];
    expect(jobs).toHaveLength(JOBS);
    for (const stream of jobs) {
      const own = events.filter((e) => e.metadata.streamId === stream);
      expect({
        stream,
        completed: ofType(own, 'GenerationCompleted').length,
        failed: ofType(own, 'GenerationFailed').length,
      }).toEqual({
        stream,
        completed: 1,
        failed: 0,
      });
    }
    const account = events.filter((e) => e.metadata.streamId === 'account-ws_generation_drill');
    expect(ofType(account, 'JobCharged')).toHaveLength(JOBS);
    expect(ofType(account, 'JobRefunded')).toHaveLength(0);
    const counters = await upstream.counters();
    expect(counters).toMatchObject({ submitRequests: JOBS, distinctJobs: JOBS });
    process.stderr.write(
      `generation kill drill: ${JSON.stringify({ jobs: JOBS, charges: ofType(account, 'JobCharged').length, polls: counters.pollRequests, seconds: (Date.now() - started) / 1000 })}\n`,
    );
  });
});
