/**
 * Generation callback benchmark (`npm run bench:generation [-- --jobs=N --tick-ms=N --window=N
 * --projector=after --profile=DIR]`). Figures, not a timed test. The issue's requirement: N
 * simulated jobs (default 10 000) with 20 progress callbacks each through the embedded stack,
 * callback route → job → read model.
 *
 * - The stack: GenerationHarness (libs/generation/src/testing/generation-harness.ts): SQLite event
 *   store, in-process SQLite bus, the runtime's worker and wake-up consumer, the media tools, the
 *   GenerationService on the in-process simulated upstream, a manual clock. "Through the callback
 *   route" is in-process: every callback is handed, signed and raw, to
 *   `GenerationService.receiveCallback('simulated', headers, body)` (GenerationHarness.deliver),
 *   the handler the HTTP controller calls (the controller adds only reading the raw body). The
 *   read model is the projector's generation projections (generationProjections) in a
 *   ProjectionRunner fed by tailing the store (StoreProjectionFeed, the embedded default), on a
 *   document store file of its own, live in this process during the callbacks (it competes for
 *   the CPU as in the embedded app). It starts after the setup, catching up with it first; with
 *   --projector=after it starts only after the callbacks (for comparison).
 * - Setup (not timed): N tasks, each with one worker turn whose model orders one image; the
 *   upstream accepts it (20 progress ticks); the charge is taken on submission. Tasks are 40 %
 *   persistent (the result needs a wake), 40 % lightweight (one-shot: the service completes the
 *   task, no wake), 20 % persistent but stopped by the person after the submission (no wake).
 * - Timed phase: 20 rounds; each moves the manual clock by --tick-ms and lets the upstream emit
 *   one progress callback per job. The default spacing is the simulated upstream's default job
 *   (upstream-config.ts: 3 s) split into the 20 ticks, ~142 ms apart, so the coalescing rule of
 *   job-progress.ts (at most one progress event per job per second, the first and the terminal
 *   always) persists about one tick in seven; `--tick-ms=1000` spaces them one coalescing interval
 *   apart, so every progress callback is appended: the worst case for the store. Each round hands
 *   the callbacks to the
 *   handler, at most --window (default 1 000) in flight, as an HTTP server's concurrency would.
 *   Then the terminal round (one completion callback per job: result poll and download, artefact,
 *   tool result, money, wake decision). Only the handler's wall time is counted, not the
 *   upstream's stepping and signing. `events_per_s` is progress callbacks per second (the target's
 *   figure); the terminal round's rate is printed apart.
 * - Model calls are counted by a spy on the executor's ModelProvider: during the progress rounds
 *   and 500 ms after them (`model_calls_from_progress`, must be 0), and after the terminal round
 *   (must be one per woken turn). Wakes are counted by the service's counter (`wakes`) and by the
 *   turns the executor actually resumed (model calls carrying the tool's result). Charges are the
 *   JobCharged events on the account stream; progress events are the GenerationProgressed events
 *   in the store. The read model is checked at the end: every job completed at progress 100.
 * - The simulated upstream stands in for a remote service; two of its costs are taken out (see
 *   lightenSimulator): a full state copy on every request, and rendering each result on download.
 *
 * Progress goes to stderr; stdout ends with one JSON line. The default run takes ~12 minutes on
 * two cores, most of it setup: the account stream's fold and the accounts projection grow with
 * the number of jobs in the workspace, so setting up is quadratic in N.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeCallId, streams, type EventEnvelope } from '@lomo/contracts';
import { StoreProjectionFeed } from '@lomo/application';
import {
  defaultSimulatedUpstreamConfig,
  DocumentStoreGenerationReadModel,
  generationJobId,
  generationProjections,
  type SimulatedCallbackDelivery,
  type SimulatedJobRecord,
  type SimulatedUpstreamStateStore,
} from '@lomo/generation';
import { budgetOf, GenerationHarness, limitsOf, person } from '@lomo/generation/testing';
import type { CompletionRequest, CompletionResult, ModelProvider } from '@lomo/llm';
import { silentLogger } from '@lomo/observability';
import { ProjectionRunner, ReadModelConsistency, SqliteDocumentStore } from '@lomo/read-models';
import { interruptTask } from '@lomo/runtime';
import { HARNESS_USER, HARNESS_WORKSPACE } from '@lomo/runtime/testing';

const flag = (name: string, fallback: number): number => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined ? fallback : Number(arg.slice(name.length + 3));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
  return value;
};

const JOBS = flag('jobs', 10_000);
const TICKS = 20;
/** The simulated upstream's default job length, in the issue's 20 ticks (see the header). */
const TICK_MS = flag('tick-ms', Math.floor(defaultSimulatedUpstreamConfig.latencyMs / (TICKS + 1)));
/** Callbacks handed to the handler at once (an HTTP server's concurrency). */
const WINDOW = flag('window', 1_000);
/** `live` (default): the projector follows the store during the callbacks; `after`: it starts after them. */
const PROJECTOR = process.argv.includes('--projector=after') ? 'after' : 'live';
/** Tasks set up at once. */
const SETUP_BATCH = flag('setup-batch', 50);
/** Ticks fall at k/(ticks+1) of the latency (simulated-upstream.ts), so this spaces them TICK_MS apart. */
const LATENCY_MS = TICK_MS * (TICKS + 1);

/** `--profile=DIR`: CPU profiles of the setup, the progress rounds and the terminal round, for DevTools. */
const PROFILE_DIR = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);

async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (PROFILE_DIR === undefined) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

const note = (line: string) => process.stderr.write(`${line}\n`);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
const yes = (ok: boolean) => (ok ? 'yes' : 'no');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Kind = 'wake' | 'oneShot' | 'stopped';
/** 40 % need a wake, 40 % one-shot lightweight, 20 % stopped while their job runs. */
const kindOf = (i: number): Kind => (['wake', 'wake', 'oneShot', 'oneShot', 'stopped'] as const)[i % 5];

/**
 * The executor's model: the first step of a turn orders one image, a step that sees a tool result
 * answers in text. Every call is counted, by phase, and the resumed turns are remembered.
 */
class ModelSpy implements ModelProvider {
  readonly name = 'bench-spy';
  calls = 0;
  ordering = 0;
  resumedCalls = 0;
  readonly resumedTurns = new Set<string>();

  complete(request: CompletionRequest): Promise<CompletionResult> {
    this.calls += 1;
    const resumed = request.messages.some((m) => m.role === 'tool');
    const usage = { inputTokens: 200, outputTokens: 20 };
    if (resumed) {
      this.resumedCalls += 1;
      this.resumedTurns.add(request.trace?.turnId ?? `unknown-${this.resumedCalls}`);
      return Promise.resolve({
        text: 'Here is your poster.',
        toolCalls: [],
        usage,
        finishReason: 'stop',
        model: 'spy',
      });
    }
    this.ordering += 1;
    return Promise.resolve({
      text: '',
      toolCalls: [
        {
          id: 'order',
          name: 'image.generate',
          arguments: JSON.stringify({ prompt: 'A poster of the harbour at dawn' }),
        },
      ],
      usage,
      finishReason: 'tool_calls',
      model: 'spy',
    });
  }
}

/** Hands callbacks to the handler, at most `window` at a time; returns the wall time in ms. */
async function deliverAll(h: GenerationHarness, deliveries: SimulatedCallbackDelivery[], window: number) {
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < deliveries.length) await h.deliver(deliveries[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(window, deliveries.length) }, lane));
  return performance.now() - started;
}

async function inChunks<T>(items: readonly T[], size: number, work: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await condition()) return true;
    await sleep(20);
  }
  return condition();
}

/**
 * The simulated upstream is a stand-in for a remote service, so its own costs are kept out of the
 * handler's time: its in-memory state store serializes every job on each request (N downloads
 * would be N JSON.stringify calls over N jobs), and it renders each result on download (a
 * 512x512 PNG drawn pixel by pixel and deflated, ~9 ms). Here it keeps no state copy and renders
 * each distinct result once, as a CDN would serve it. Both are private to the simulator.
 */
function lightenSimulator(h: GenerationHarness): void {
  const upstream = h.sim.upstream as unknown as {
    store: SimulatedUpstreamStateStore;
    render: (job: SimulatedJobRecord) => Buffer;
  };
  upstream.store = { load: () => undefined, save: () => undefined };
  const render = upstream.render.bind(upstream);
  const rendered = new Map<string, Buffer>();
  upstream.render = (job) => {
    const key = JSON.stringify([job.kind, job.prompt, job.options]);
    const bytes = rendered.get(key) ?? render(job);
    rendered.set(key, bytes);
    return bytes;
  };
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  note(`bench:generation: ${JOBS} jobs, ${TICKS} progress callbacks each, one every ${TICK_MS} ms of upstream time`);
  const h = await GenerationHarness.open({
    label: 'bench-generation',
    upstream: { config: { latencyMs: LATENCY_MS, progressTicks: TICKS } },
    autoDeliver: false,
  });
  lightenSimulator(h);
  const projectorDocuments = new SqliteDocumentStore({ filename: join(h.runtime.dir, 'projector.sqlite') });
  const runner = new ProjectionRunner({
    documents: projectorDocuments,
    events: h.runtime.store,
    projections: generationProjections,
    logger: silentLogger,
  });
  const feed = new StoreProjectionFeed({
    events: h.runtime.store,
    runner,
    projections: generationProjections,
    logger: silentLogger,
  });
  try {
    // ---- setup (not timed) ----------------------------------------------------------------
    const setupStarted = performance.now();
    const meta = { workspaceId: HARNESS_WORKSPACE, correlationId: 'limits', causationId: null, actor: person };
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), budgetOf(100_000_000), meta);
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), limitsOf(10_000, 100_000_000), meta);
    const model = new ModelSpy();
    const executor = h.runtime.worker('executor-1', model);
    await h.runtime.consumeWakeUps(executor);

    const tasks: Array<{ taskId: string; kind: Kind }> = [];
    await profiled('setup', async () => {
      for (let i = 0; i < JOBS; i += SETUP_BATCH) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(SETUP_BATCH, JOBS - i) }, async (_, j) => {
            const kind = kindOf(i + j);
            const created = await h.runtime.createTask(
              `make poster ${i + j}`,
              kind === 'oneShot' ? 'lightweight' : 'persistent',
            );
            return { taskId: created.taskId, kind };
          }),
        );
        await Promise.all(batch.map((t) => executor.worker.wake({ taskId: t.taskId, reason: 'message' })));
        await h.service.idle();
        tasks.push(...batch);
        if ((i / SETUP_BATCH) % 20 === 19)
          note(`  set up ${tasks.length} tasks (${((performance.now() - setupStarted) / 1000).toFixed(1)} s)`);
      }
    });
    await executor.worker.idle();
    await h.service.idle();

    const jobOfTask = new Map<string, string>();
    await inChunks(tasks, 200, async (t) => {
      const opened = (await h.read(streams.task(t.taskId))).find((e) => e.type === 'TurnOpened');
      const turnId = (opened?.data as { turnId: string } | undefined)?.turnId;
      if (turnId !== undefined) jobOfTask.set(t.taskId, generationJobId(HARNESS_WORKSPACE, makeCallId(turnId, 1, 0)));
    });
    const stopped = tasks.filter((t) => t.kind === 'stopped');
    await inChunks(stopped, 50, (t) =>
      interruptTask(h.runtime.commandDeps(), 'stop', {
        taskId: t.taskId,
        by: { kind: 'user', userId: HARNESS_USER },
        reason: 'enough',
      }),
    );
    await executor.worker.idle();
    await h.service.idle();
    // The projector starts here: its start-up sweep catches up with the setup's events, then it
    // follows the store live through the timed phase. (Live during the setup it would rewrite the
    // workspace's account document, which holds the whole account, on each of 3 N account events.)
    const startProjector = async () => {
      const started = performance.now();
      await runner.start();
      await runner.ready();
      await feed.start();
      return (performance.now() - started) / 1000;
    };
    const projectorCatchUpSeconds = PROJECTOR === 'live' ? await startProjector() : 0;
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const upstreamJobs = h.sim.upstream.countersSnapshot().distinctJobs;
    const setupModelCalls = model.calls;
    note(
      `setup: ${tasks.length} tasks, ${jobOfTask.size} jobs ordered, ${upstreamJobs} accepted upstream, ${h.service.counters.submits} submits, ${stopped.length} tasks stopped, ${setupModelCalls} model calls, in ${setupSeconds.toFixed(1)} s${PROJECTOR === 'live' ? ` (projector start-up catch-up ${projectorCatchUpSeconds.toFixed(1)} s)` : ''}`,
    );
    if (upstreamJobs !== JOBS || jobOfTask.size !== JOBS) throw new Error('setup did not submit one job per task');

    // ---- timed: progress callbacks --------------------------------------------------------
    let progressCallbacks = 0;
    let progressMs = 0;
    const roundRates: number[] = [];
    await profiled('progress', async () => {
      for (let r = 1; r <= TICKS; r += 1) {
        h.runtime.clock.advance(TICK_MS);
        h.sim.upstream.step();
        const deliveries = h.sim.deliveries.splice(0);
        const ms = await deliverAll(h, deliveries, WINDOW);
        progressCallbacks += deliveries.length;
        progressMs += ms;
        roundRates.push(deliveries.length / (ms / 1000));
      }
    });
    await h.service.idle();
    // Anything the progress caused reaches the model within this: a wake is on the bus in ~20 ms.
    await sleep(500);
    await executor.worker.idle();
    const modelCallsFromProgress = model.calls - setupModelCalls;
    const progressRate = progressCallbacks / (progressMs / 1000);
    const appendedAfterProgress = h.service.counters.progressAppended;
    note(
      `progress: ${progressCallbacks} callbacks in ${(progressMs / 1000).toFixed(2)} s = ${Math.round(progressRate)} callbacks/s (median round ${Math.round(median(roundRates))}/s, min ${Math.round(sorted(roundRates)[0])}/s); ${appendedAfterProgress} progress events appended, ${h.service.counters.progressCoalesced} coalesced; ${modelCallsFromProgress} model calls`,
    );

    // ---- timed: terminal callbacks --------------------------------------------------------
    h.runtime.clock.advance(LATENCY_MS - TICKS * TICK_MS);
    h.sim.upstream.step();
    const terminal = h.sim.deliveries.splice(0);
    const terminalMs = await profiled('terminal', () => deliverAll(h, terminal, WINDOW));
    await h.service.idle();
    const callbacksEnded = performance.now();
    // --projector=after: the read model is built only now, from the whole log (a comparison run).
    if (PROJECTOR === 'after')
      note(`projector started after the callbacks: caught up in ${(await startProjector()).toFixed(1)} s`);
    const terminalRate = terminal.length / (terminalMs / 1000);
    note(
      `terminal: ${terminal.length} completion callbacks in ${(terminalMs / 1000).toFixed(2)} s = ${Math.round(terminalRate)} callbacks/s (download, artefact, tool result, money, wake decision)`,
    );
    const allRate = (progressCallbacks + terminal.length) / ((progressMs + terminalMs) / 1000);
    note(`all callbacks: ${progressCallbacks + terminal.length} at ${Math.round(allRate)} callbacks/s`);

    // ---- read model ------------------------------------------------------------------------
    const token = await Promise.all(
      [...jobOfTask.values()].map(async (jobId) => {
        const streamId = streams.generation(jobId);
        return { streamId, revision: (await h.runtime.store.streamRevision(streamId)) as number };
      }),
    );
    const consistency = new ReadModelConsistency(projectorDocuments, runner.aliases, generationProjections);
    const caughtUp = await waitUntil(async () => {
      for (let i = 0; i < token.length; i += 500) {
        if ((await consistency.pending(token.slice(i, i + 500))).length > 0) return false;
      }
      return true;
    }, 120_000);
    const readModelLagMs = performance.now() - callbacksEnded;
    const readModel = new DocumentStoreGenerationReadModel(
      projectorDocuments,
      (name) => runner.aliases.collectionOf(name),
      h.runtime.clock,
    );
    let shownDone = 0;
    await inChunks([...jobOfTask.values()], 200, async (jobId) => {
      const view = await readModel.job(HARNESS_WORKSPACE, jobId);
      if (view?.phase === 'completed' && view.progress === 100) shownDone += 1;
    });
    note(
      `read model: ${caughtUp ? 'caught up' : 'NOT caught up'} ${(readModelLagMs / 1000).toFixed(2)} s after the last callback; ${shownDone}/${JOBS} jobs shown completed at progress 100`,
    );

    // ---- wakes, model calls, charges -------------------------------------------------------
    const needingWake = tasks.filter((t) => t.kind === 'wake').length;
    const oneShots = tasks.filter((t) => t.kind === 'oneShot').length;
    await waitUntil(() => model.resumedTurns.size >= needingWake, 120_000);
    await sleep(500); // a wake too many would show up within this
    await executor.worker.idle();
    const terminalModelCalls = model.calls - setupModelCalls - modelCallsFromProgress;
    const extraModelCalls = terminalModelCalls - model.resumedTurns.size;
    const counters = h.service.counters;

    const accountEvents = await h.accountEvents(HARNESS_WORKSPACE);
    const charged = accountEvents.filter((e) => e.type === 'JobCharged');
    const chargesPerJob = new Map<string, number>();
    for (const e of charged) {
      const jobId = (e.data as { jobId: string }).jobId;
      chargesPerJob.set(jobId, (chargesPerJob.get(jobId) ?? 0) + 1);
    }
    const oneChargeEach = [...jobOfTask.values()].every((jobId) => chargesPerJob.get(jobId) === 1);

    const progressed: EventEnvelope[] = await h.runtime.store.readAll({
      filter: { streamPrefixes: ['generation-'], eventTypes: ['GenerationProgressed'] },
    });
    const completed = await h.runtime.store.readAll({
      filter: { streamPrefixes: ['generation-'], eventTypes: ['GenerationCompleted'] },
    });

    // Woken turns end completed (a persistent task stays open for more messages); one-shot tasks
    // complete; stopped tasks open no turn after the stop.
    let wokenTurnsCompleted = 0;
    let oneShotTasksCompleted = 0;
    let stoppedStayed = 0;
    await inChunks(tasks, 200, async (t) => {
      const taskEvents = await h.read(streams.task(t.taskId));
      const types = taskEvents.map((e) => e.type);
      if (t.kind === 'oneShot' && types.includes('TaskCompleted')) oneShotTasksCompleted += 1;
      if (t.kind === 'wake') {
        const turnId = (taskEvents.find((e) => e.type === 'TurnOpened')?.data as { turnId: string }).turnId;
        const turn = (await h.read(streams.turn(turnId))).map((e) => e.type);
        if (turn.at(-1) === 'TurnCompleted') wokenTurnsCompleted += 1;
      }
      const stoppedAt = types.indexOf('TaskStopped');
      if (t.kind === 'stopped' && stoppedAt >= 0 && !types.slice(stoppedAt).includes('TurnOpened')) stoppedStayed += 1;
    });

    note(
      `model calls: ${setupModelCalls} in setup (one per task), ${modelCallsFromProgress} during the progress rounds, ${terminalModelCalls} after the terminal round for ${model.resumedTurns.size} resumed turns (${extraModelCalls} extra)`,
    );
    note(
      `wakes: ${counters.wakes} by the service's counter, ${model.resumedTurns.size} turns resumed by the executor, ${needingWake} jobs need one; one-shots completed ${counters.oneShotsCompleted}/${oneShots}, settled without wake ${counters.settledWithoutWake}/${stopped.length}`,
    );
    note(
      `jobs: ${completed.length} GenerationCompleted, ${progressed.length} GenerationProgressed on the job streams (counter ${counters.progressAppended}); woken turns completed ${wokenTurnsCompleted}/${needingWake}, one-shot tasks completed ${oneShotTasksCompleted}/${oneShots}, ${stoppedStayed}/${stopped.length} stopped tasks opened no turn after the stop`,
    );
    note(
      `charges: ${charged.length} JobCharged on the account stream (counter ${counters.charges}), one per job: ${yes(oneChargeEach)}`,
    );
    const upstream = h.sim.upstream.countersSnapshot();
    note(
      `upstream: ${upstream.submitRequests} submits, ${upstream.pollRequests} polls, ${upstream.downloadRequests} downloads, ${upstream.callbacksSent} callbacks; callback refusals ${h.callbackResults.filter((r) => !r.ok).length}, service errors ${h.errors.length}`,
    );
    for (const { error, context } of h.errors.slice(0, 5)) note(`  error: ${String(error)} ${JSON.stringify(context)}`);

    note('targets:');
    note(`  >= 20 000 progress callbacks/s: ${Math.round(progressRate)}/s, target met: ${yes(progressRate >= 20_000)}`);
    note(
      `  zero model calls from progress: ${modelCallsFromProgress}, target met: ${yes(modelCallsFromProgress === 0)}`,
    );
    const wakesOk = counters.wakes === needingWake && model.resumedTurns.size === needingWake && extraModelCalls === 0;
    note(
      `  exactly one wake per job needing one, none for the others: ${counters.wakes} wakes (${model.resumedTurns.size} resumed turns) for ${needingWake} jobs, target met: ${yes(wakesOk)}`,
    );
    note(
      `  exactly one charge per job: ${charged.length} charges for ${JOBS} jobs, target met: ${yes(oneChargeEach && charged.length === JOBS)}`,
    );
    note(`run time ${((performance.now() - runStarted) / 1000).toFixed(1)} s`);

    console.log(
      JSON.stringify({
        events_per_s: Math.round(progressRate),
        appended_progress_events: progressed.length,
        model_calls_from_progress: modelCallsFromProgress,
        wakes: counters.wakes,
        jobs_needing_wake: needingWake,
        charges: charged.length,
        jobs: JOBS,
      }),
    );
  } finally {
    await feed.stop();
    await runner.stop();
    await h.close();
    await projectorDocuments.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
