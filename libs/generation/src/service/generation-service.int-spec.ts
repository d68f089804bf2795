import { makeCallId, streams } from '@lomo/contracts';
import { ScriptedModelProvider } from '@lomo/llm';
import { interruptTask } from '@lomo/runtime';
import { HARNESS_USER, HARNESS_WORKSPACE } from '@lomo/runtime/testing';
import { waitFor } from '@lomo/bus/testing';
import { generationArtifactId, generationJobId } from '../job/job-ids';
import type { SimulatedUpstreamControl } from '../simulated';
import { budgetOf, foldAccount, GenerationHarness, limitsOf, person, type GenerationHarnessOptions } from '../testing';

// The Must-show fault tests of the generation service: the in-process simulated upstream (its
// fault switches), the real runtime worker on SQLite, a scripted model that orders one poster.

const posterCall = {
  label: 'poster',
  reply: { toolCalls: [{ name: 'image.generate', arguments: { prompt: 'A poster of the harbour at dawn' } }] },
};
const types = (events: ReadonlyArray<{ type: string }>) => events.map((e) => e.type);
const count = (events: ReadonlyArray<{ type: string }>, type: string) => events.filter((e) => e.type === type).length;
const user = { kind: 'user' as const, userId: HARNESS_USER };

describe('the generation service on the simulated upstream', () => {
  let h: GenerationHarness;
  afterEach(async () => h?.close());

  async function open(options: Omit<GenerationHarnessOptions, 'label'> & { upstream?: SimulatedUpstreamControl }) {
    h = await GenerationHarness.open({
      label: 'gen-faults',
      ...options,
      upstream: { ...options.upstream, config: { latencyMs: 4_000, progressTicks: 3, ...options.upstream?.config } },
    });
    return h;
  }

  /** A budget the person approved and auto-approve limits, so jobs within them need no question. */
  async function allowAutoApprove(perCall = 10_000, daily = 100_000, budget = 1_000_000) {
    const meta = { workspaceId: HARNESS_WORKSPACE, correlationId: 'limits', causationId: null, actor: person };
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), budgetOf(budget), meta);
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), limitsOf(perCall, daily), meta);
  }

  /** A task whose model orders one poster; resolves once the turn waits on the job. */
  async function orderPoster(kind: 'persistent' | 'lightweight' = 'persistent') {
    const { taskId } = await h.runtime.createTask('make a poster of the harbour', kind);
    const model = new ScriptedModelProvider([posterCall, { label: 'answer', reply: { text: 'Here is your poster.' } }]);
    const executor = h.runtime.worker('executor-1', model);
    await h.runtime.consumeWakeUps(executor);
    await executor.worker.wake({ taskId, reason: 'message' });
    await h.settle();
    const turnId = (await h.read(streams.task(taskId)))
      .filter((e) => e.type === 'TurnOpened')
      .map((e) => (e.data as { turnId: string }).turnId)[0];
    const callId = makeCallId(turnId, 1, 0);
    const jobId = generationJobId(HARNESS_WORKSPACE, callId);
    return { taskId, turnId, callId, jobId, model, executor };
  }

  const job = (jobId: string) => h.read(streams.generation(jobId));
  const account = () => h.accountEvents(HARNESS_WORKSPACE);
  const ledgerOf = async (jobId: string) =>
    types((await account()).filter((e) => (e.data as { jobId?: string }).jobId === jobId));
  const upstream = () => h.sim.upstream.countersSnapshot();
  async function advanceBy(totalMs: number, stepMs = 1_000) {
    for (let t = 0; t < totalMs; t += stepMs) await h.advance(stepMs);
  }

  it('runs a poster job end to end: submit once, progress by callback, artefact, one charge, one wake', async () => {
    await open({});
    await allowAutoApprove();
    const { turnId, jobId, model, executor } = await orderPoster();
    expect(types(await h.read(streams.turn(turnId))).at(-1)).toBe('TurnWaiting');
    await advanceBy(6_000);

    const events = await job(jobId);
    expect(types(events)).toEqual([
      'GenerationRequested',
      'GenerationSubmissionStarted',
      'GenerationSubmitted',
      'GenerationCharged',
      ...types(events).filter((t) => t === 'GenerationProgressed'),
      'GenerationCompleted',
    ]);
    expect(count(events, 'GenerationProgressed')).toBeGreaterThan(0);
    expect(upstream()).toMatchObject({ submitRequests: 1, distinctJobs: 1 });
    expect(await ledgerOf(jobId)).toEqual(['QuoteIssued', 'FundsReserved', 'JobCharged']);
    const artifact = await h.read(streams.artifact(generationArtifactId(jobId)));
    expect(artifact[0]).toMatchObject({
      type: 'ArtifactCreated',
      data: expect.objectContaining({
        kind: 'image',
        createdBy: expect.objectContaining({ kind: 'generation', jobId }),
        content: expect.objectContaining({ blob: expect.objectContaining({ contentType: 'image/png' }) }),
      }),
    });
    await waitFor(() => model.calls.length === 2, 'the woken turn asked the model again', 5_000);
    await executor.worker.idle();
    expect(h.service.counters.wakes).toBe(1);
    expect(h.errors).toEqual([]);
    const turn = types(await h.read(streams.turn(turnId)));
    expect(count(await h.read(streams.turn(turnId)), 'ToolCallCompleted')).toBe(1);
    expect(turn.at(-1)).toBe('TurnCompleted');
  });

  it('a duplicated completion callback gives one artefact, one charge, one wake', async () => {
    await open({ upstream: { faults: { duplicateCallbacks: true } } });
    await allowAutoApprove();
    const { turnId, jobId, model } = await orderPoster();
    await advanceBy(6_000);

    expect(upstream().callbacksSent).toBeGreaterThanOrEqual(2 * 4);
    const replays = h.callbackResults.filter((r) => r.code === 'CALLBACK_REPLAYED');
    expect(replays.length).toBeGreaterThanOrEqual(4);
    expect(count(await job(jobId), 'GenerationCompleted')).toBe(1);
    expect(count(await h.read(streams.artifact(generationArtifactId(jobId))), 'ArtifactCreated')).toBe(1);
    expect(count(await account(), 'JobCharged')).toBe(1);
    expect(count(await h.read(streams.turn(turnId)), 'ToolCallCompleted')).toBe(1);
    await waitFor(() => model.calls.length === 2, 'one wake', 5_000);
    expect(h.service.counters.wakes).toBe(1);
  });

  it('progress that arrives after the completion is ignored: the job never moves backwards', async () => {
    await open({ upstream: { faults: { outOfOrderProgress: true } } });
    await allowAutoApprove();
    const { jobId } = await orderPoster('lightweight');
    await advanceBy(8_000);

    const events = await job(jobId);
    const completedAt = types(events).indexOf('GenerationCompleted');
    expect(completedAt).toBeGreaterThan(0);
    expect(types(events.slice(completedAt + 1)).filter((t) => t === 'GenerationProgressed')).toEqual([]);
    expect(h.callbackResults.filter((r) => r.ok).length).toBeGreaterThan(1); // the late ones were accepted, and ignored
    const progress = events
      .filter((e) => e.type === 'GenerationProgressed')
      .map((e) => (e.data as { progress: number }).progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('the dedupe of callback event ids survives a restart: a delivery replayed to the new process is refused and appends nothing', async () => {
    await open({ autoDeliver: false });
    await allowAutoApprove();
    const { jobId } = await orderPoster();
    await h.advance(1_100); // the first progress tick
    const [first] = h.sim.deliveries;
    expect(first).toBeDefined();
    await h.deliver(first);
    expect(h.callbackResults).toEqual([{ ok: true }]);
    await h.advance(1_000); // the ledger's flush tick writes the processed id behind

    await h.restart();
    const before = (await job(jobId)).length;
    await h.deliver(first);
    expect(h.callbackResults.at(-1)).toEqual({ ok: false, code: 'CALLBACK_REPLAYED' });
    expect((await job(jobId)).length).toBe(before);
    expect(h.errors).toEqual([]);
  });

  it('a replay whose id was not yet written behind when the process died is taken again and changes nothing', async () => {
    await open({ autoDeliver: false });
    await allowAutoApprove();
    const { jobId } = await orderPoster();
    await h.advance(1_100);
    const [first] = h.sim.deliveries;
    await h.deliver(first);
    const after = (await job(jobId)).length;

    // A second process takes the callbacks before the first one wrote the id behind (as after a
    // SIGKILL, the first one's batch is not in the store).
    const next = h.openService();
    await next.start();
    h.service = next;
    await h.deliver(first);
    expect(h.callbackResults.at(-1)).toEqual({ ok: true });
    expect((await job(jobId)).length).toBe(after); // the job stream knows the callback id
  });

  it('a lost callback is made up for by compensation polling', async () => {
    await open({ upstream: { faults: { lostCallbacks: true } }, timings: { silenceMs: 10_000 } });
    await allowAutoApprove();
    const { jobId, model } = await orderPoster();
    await advanceBy(6_000);
    expect(types(await job(jobId))).not.toContain('GenerationCompleted');
    expect(upstream().callbacksLost).toBeGreaterThan(0);

    await advanceBy(6_000);
    const events = await job(jobId);
    expect(count(events, 'GenerationCompleted')).toBe(1);
    expect(upstream().pollRequests).toBeGreaterThanOrEqual(1);
    expect(count(await account(), 'JobCharged')).toBe(1);
    await waitFor(() => model.calls.length === 2, 'the wake after the poll', 5_000);
  });

  it('a timeout after the upstream created the job gives failed + refunded, and no second submission', async () => {
    await open({ upstream: { faults: { timeoutAfterCreate: true } } });
    await allowAutoApprove();
    const { jobId, turnId } = await orderPoster();
    await waitFor(async () => types(await job(jobId)).includes('GenerationFailed'), 'the submit timed out', 5_000);
    await h.settle();
    await advanceBy(10 * 60_000, 60_000);

    const events = await job(jobId);
    expect(events.find((e) => e.type === 'GenerationFailed')?.data).toMatchObject({ reason: 'outcome_unknown' });
    expect(types(events)).not.toContain('GenerationSubmitted');
    expect(upstream()).toMatchObject({ submitRequests: 1, distinctJobs: 1 });
    expect(await ledgerOf(jobId)).toEqual(['QuoteIssued', 'FundsReserved', 'JobCharged', 'JobRefunded']);
    const completion = (await h.read(streams.turn(turnId))).find((e) => e.type === 'ToolCallCompleted');
    expect(completion?.data).toMatchObject({ status: 'error', error: { code: 'GENERATION_OUTCOME_UNKNOWN' } });
  });

  it('a crash between the upstream’s acceptance and recording its id ends, after the submit timeout, in failed + refunded', async () => {
    const accepted: string[] = [];
    await open({
      timings: { submitTimeoutMs: 60_000 },
      // The process dies here: the step never ends, nothing after it runs.
      hooks: {
        afterUpstreamAccepted: (_jobId, upstreamJobId) => {
          accepted.push(upstreamJobId);
          return never();
        },
      },
    });
    await allowAutoApprove();
    const { jobId } = await orderPoster();
    await waitFor(() => accepted.length === 1, 'the upstream accepted', 5_000);
    await h.restart({ timings: { submitTimeoutMs: 60_000 } });
    await advanceBy(30_000, 10_000);
    expect(types(await job(jobId))).not.toContain('GenerationFailed');

    await advanceBy(40_000, 10_000);
    const events = await job(jobId);
    expect(events.find((e) => e.type === 'GenerationFailed')?.data).toMatchObject({ reason: 'submit_timeout' });
    expect(types(events)).not.toContain('GenerationSubmitted');
    expect(upstream()).toMatchObject({ submitRequests: 1, distinctJobs: 1 });
    expect(await ledgerOf(jobId)).toEqual(['QuoteIssued', 'FundsReserved', 'JobCharged', 'JobRefunded']);
  });

  it('two generation services running the same call give one order, one submission and one charge', async () => {
    await open({});
    await allowAutoApprove();
    const second = h.openService();
    await second.start();
    const { jobId } = await orderPoster();
    // The second process is told about the same job at the same moment (its bus consumer).
    await Promise.all([h.service.advance(jobId), second.advance(jobId)]);
    await advanceBy(6_000);
    await second.idle();

    expect(count(await job(jobId), 'GenerationRequested')).toBe(1);
    expect(count(await job(jobId), 'GenerationSubmissionStarted')).toBe(1);
    expect(count(await job(jobId), 'GenerationCompleted')).toBe(1);
    expect(upstream()).toMatchObject({ submitRequests: 1, distinctJobs: 1 });
    expect(await ledgerOf(jobId)).toEqual(['QuoteIssued', 'FundsReserved', 'JobCharged']);
    expect(h.service.counters.submits + second.counters.submits).toBe(1);
  });

  it('stopping the task while its job runs lets the job settle, and the task stays stopped', async () => {
    await open({});
    await allowAutoApprove();
    const { taskId, turnId, jobId, model } = await orderPoster();
    await h.advance(1_000);
    await interruptTask(h.runtime.commandDeps(), 'stop', { taskId, by: user, reason: 'enough' });
    const taskAfterStop = types(await h.read(streams.task(taskId)));
    await advanceBy(6_000);

    expect(count(await job(jobId), 'GenerationCompleted')).toBe(1);
    expect(await ledgerOf(jobId)).toEqual(['QuoteIssued', 'FundsReserved', 'JobCharged']);
    expect(count(await h.read(streams.artifact(generationArtifactId(jobId))), 'ArtifactCreated')).toBe(1);
    expect(types(await h.read(streams.turn(turnId))).slice(-2)).toEqual(['TurnCancelled', 'ToolCallCompleted']);
    expect(types(await h.read(streams.task(taskId)))).toEqual(taskAfterStop);
    expect(h.service.counters).toMatchObject({ wakes: 0, settledWithoutWake: 1 });
    expect(model.calls).toHaveLength(1);
  });

  it('a paid call with no approval never reaches the provider: it asks the person at a checkpoint', async () => {
    await open({});
    const submit = jest.spyOn(h.sim.provider, 'submit');
    const { taskId, jobId } = await orderPoster();
    await advanceBy(5_000);

    expect(submit).not.toHaveBeenCalled();
    expect(upstream().submitRequests).toBe(0);
    expect(types(await job(jobId))).toEqual(['GenerationRequested', 'GenerationApprovalRequested']);
    expect(await ledgerOf(jobId)).toEqual(['QuoteIssued']);
    const checkpoint = (await h.read(streams.task(taskId))).find((e) => e.type === 'CheckpointOpened');
    // The card shows the price and names the order and quote it approves (an approval never
    // applies to another order or another price).
    expect(checkpoint?.data).toMatchObject({
      kind: 'approval',
      question: expect.stringContaining('0.04 USD'),
      argumentsHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      callQuote: { amountMinor: 4, currency: 'USD' },
    });
  });

  it('429 then success gives one job upstream and one charge', async () => {
    await open({ upstream: { faults: { failNextSubmitWith: 429, failNextSubmitTimes: 2, retryAfterSeconds: 1 } } });
    await allowAutoApprove();
    const { jobId } = await orderPoster();
    await advanceBy(10_000, 500);

    expect(count(await job(jobId), 'GenerationCompleted')).toBe(1);
    expect(upstream()).toMatchObject({ submitRequests: 3, distinctJobs: 1 });
    expect(await ledgerOf(jobId)).toEqual(['QuoteIssued', 'FundsReserved', 'JobCharged']);
  });

  it('a 400 fails the job cleanly: the reservation is released, nothing charged, nothing to refund', async () => {
    await open({ upstream: { faults: { failNextSubmitWith: 400 } } });
    await allowAutoApprove();
    const { jobId, turnId } = await orderPoster();
    await advanceBy(2_000);

    expect((await job(jobId)).find((e) => e.type === 'GenerationFailed')?.data).toMatchObject({ reason: 'rejected' });
    expect(upstream()).toMatchObject({ submitRequests: 1, distinctJobs: 0 });
    expect(await ledgerOf(jobId)).toEqual(['QuoteIssued', 'FundsReserved', 'ReservationReleased']);
    const completion = (await h.read(streams.turn(turnId))).find((e) => e.type === 'ToolCallCompleted');
    expect(completion?.data).toMatchObject({
      status: 'error',
      error: { code: 'GENERATION_REJECTED', retriable: false },
    });
  });

  it('two generation processes, duplicated callbacks and a crash between the job’s and the account’s append: one submission, one charge, no refund per job', async () => {
    await open({ upstream: { faults: { duplicateCallbacks: true } }, autoDeliver: false });
    await allowAutoApprove();
    await h.service.stop(); // only the two processes below run jobs
    let crashes = 0;
    // Process A dies (its step stops) before each first charge write: the job stream has the
    // upstream id, the account has no charge yet. Process B, on its own store connection, repairs.
    const a = h.openService({
      hooks: {
        beforeSettlementStep: (_jobId, step) => {
          if (step.stream === 'account' && step.command.type === 'ChargeJob' && crashes < 3) {
            crashes += 1;
            throw new Error('process A crashed before the charge');
          }
        },
      },
    });
    const b = h.openService({ ownStore: true });
    await a.start();
    await b.start();
    const jobs: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { jobId } = await orderPoster();
      jobs.push(jobId);
      await Promise.allSettled([a.advance(jobId), b.advance(jobId)]);
    }
    const handed = new Set<number>();
    for (let round = 0; round < 12; round += 1) {
      h.runtime.clock.advance(1_000);
      h.sim.upstream.step();
      // Every delivery (each one twice, by the fault switch) goes to both processes at once.
      const fresh = h.sim.deliveries.filter((_, i) => !handed.has(i));
      h.sim.deliveries.forEach((_, i) => handed.add(i));
      await Promise.allSettled(
        fresh.flatMap((d) => [
          a.receiveCallback('simulated', d.headers, Buffer.from(d.body)),
          b.receiveCallback('simulated', d.headers, Buffer.from(d.body)),
        ]),
      );
      await Promise.all([a.idle(), b.idle(), h.settle()]);
    }
    h.runtime.clock.advance(60_000); // the sweeps: anything a crash left half-done is finished
    await Promise.all([a.idle(), b.idle(), h.settle()]);

    expect(crashes).toBe(3);
    expect(upstream()).toMatchObject({ submitRequests: 3, distinctJobs: 3 });
    for (const jobId of jobs) {
      expect({ jobId, ledger: await ledgerOf(jobId) }).toEqual({
        jobId,
        ledger: ['QuoteIssued', 'FundsReserved', 'JobCharged'],
      });
      expect(count(await job(jobId), 'GenerationCompleted')).toBe(1);
      expect(count(await job(jobId), 'GenerationCharged')).toBe(1);
      expect(count(await h.read(streams.artifact(generationArtifactId(jobId))), 'ArtifactCreated')).toBe(1);
    }
    const totals = foldAccount(
      (await account()).map((e) => ({ type: e.type, data: e.data }) as Parameters<typeof foldAccount>[0][number]),
    ).totals.USD;
    expect(totals).toMatchObject({ reservedMinor: 0, chargedMinor: 12, refundedMinor: 0 });
    expect(totals.chargedMinor - totals.refundedMinor).toBeLessThanOrEqual(totals.budgetMinor);
  });
});

function never(): Promise<void> {
  return new Promise<void>(() => undefined);
}
