/**
 * Runtime benchmark (`npm run bench:runtime [-- --synchronous FULL|NORMAL]`). Figures, not a timed
 * test. A scripted model answers at once, so what is measured is the runtime's own work per step:
 * plan, claim, build and archive the prompt, commit, start / run / record one no-op tool call, on
 * the embedded SQLite store (and filesystem blobs). Step time comes from a fault-injection probe
 * at the start of each model call; the model's own time is measured around `complete` and taken
 * out. Turn lengths 10, 100 and 1 000 show whether a step costs more as the turn grows. Ends with
 * one JSON line for tooling.
 */
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { streams } from '@lomo/contracts';
import { DEFAULT_SYNCHRONOUS, type SynchronousMode } from '@lomo/eventstore';
import { type CompletionRequest, type CompletionResult, type ModelProvider } from '@lomo/llm';
import { type FaultContext, type FaultInjector } from '@lomo/runtime';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { defineTool, okResult } from '@lomo/tools';

const synchronous: SynchronousMode = process.argv.includes('--synchronous')
  ? (process.argv[process.argv.indexOf('--synchronous') + 1] as SynchronousMode)
  : DEFAULT_SYNCHRONOUS;
/** A model that takes this long shows the prompt archive's write hidden behind the call. */
const SLOW_MODEL_MS = 5;
const ROUNDS: ReadonlyArray<[steps: number, turns: number]> = [
  [10, 30],
  [100, 5],
  [1_000, 2],
];

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(values.length * p))];
const round = (n: number, digits = 3) => Number(n.toFixed(digits));

/** Times every model call, so the model's share can be taken out of a step. */
class TimedModel implements ModelProvider {
  readonly name = 'timed';
  readonly durations: number[] = [];
  constructor(private readonly inner: ModelProvider) {}
  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const started = performance.now();
    try {
      return await this.inner.complete(request);
    } finally {
      this.durations.push(performance.now() - started);
    }
  }
}

/** Marks the start of each step (the model call begins it; the one before ends the previous step). */
class StepProbe implements FaultInjector {
  readonly marks: number[] = [];
  at(context: FaultContext): undefined {
    if (context.point === 'before-model-call') this.marks.push(performance.now());
    return undefined;
  }
}

const noop = defineTool({
  name: 'bench.noop',
  description: 'Does nothing, at once.',
  domain: 'core',
  sideEffect: 'read',
  idempotent: true,
  input: z.strictObject({ i: z.number().int() }),
  run: async (input) => okResult({ i: input.i }),
});

/**
 * Answers the next scripted reply without keeping the requests (the scripted provider records
 * every one for its assertions; over a long turn whose prompts grow to the history budget that
 * retention, not the runtime, would dominate the measurement).
 */
class InstantModel implements ModelProvider {
  readonly name = 'instant';
  private calls = 0;
  constructor(
    private readonly steps: number,
    private readonly delayMs: number,
  ) {}
  async complete(): Promise<CompletionResult> {
    const i = this.calls;
    this.calls += 1;
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const last = i >= this.steps - 1;
    return {
      text: last ? 'finished' : `step ${i + 1}`,
      toolCalls: last ? [] : [{ id: `c${i}`, name: 'bench.noop', arguments: JSON.stringify({ i }) }],
      usage: { inputTokens: 1, outputTokens: 1 },
      finishReason: last ? 'stop' : 'tool_calls',
      model: 'instant',
    };
  }
}

interface TurnFigures {
  steps: number;
  msPerStep: number;
  overheads: number[];
  eventsPerStep: number;
  bytesPerStep: number;
}

async function runTurn(harness: RuntimeHarness, steps: number, index: number, delayMs = 0): Promise<TurnFigures> {
  const model = new TimedModel(new InstantModel(steps, delayMs));
  const probe = new StepProbe();
  const { worker } = harness.worker(`bench-${steps}-${index}`, model, {
    faults: probe,
    runtime: { maxStepsPerTurn: steps + 1 },
    ownStore: false,
  });
  const { taskId } = await harness.createTask('benchmark turn');
  const started = performance.now();
  await worker.wake({ taskId, reason: 'message' });
  const total = performance.now() - started;

  const turnId = (await harness.read(streams.task(taskId))).find((e) => e.type === 'TurnOpened')!.data as {
    turnId: string;
  };
  const turn = await harness.read(streams.turn(turnId.turnId));
  if (turn.at(-1)?.type !== 'TurnCompleted') throw new Error(`turn of ${steps} steps did not complete`);
  // Per-step events: everything between the lease and the completion.
  const stepEvents = turn.filter(
    (e) => !['TurnStarted', 'TurnLeased', 'TurnLeaseRenewed', 'TurnCompleted'].includes(e.type),
  );
  const bytes = stepEvents.reduce(
    (n, e) => n + Buffer.byteLength(JSON.stringify(e.data)) + Buffer.byteLength(JSON.stringify(e.metadata)),
    0,
  );
  const overheads: number[] = [];
  for (let i = 1; i < probe.marks.length; i += 1)
    overheads.push(probe.marks[i] - probe.marks[i - 1] - model.durations[i - 1]);
  return {
    steps,
    msPerStep: total / steps,
    overheads,
    eventsPerStep: stepEvents.length / steps,
    bytesPerStep: bytes / steps,
  };
}

async function main(): Promise<void> {
  const harness = await RuntimeHarness.open({ label: 'bench-runtime', synchronous, tools: () => [noop] });
  try {
    await runTurn(harness, 10, -1); // warm-up: JIT, statement caches, blob directories
    const results = new Map<number, TurnFigures[]>();
    for (const [steps, turns] of ROUNDS) {
      const figures: TurnFigures[] = [];
      for (let i = 0; i < turns; i += 1) figures.push(await runTurn(harness, steps, i));
      results.set(steps, figures);
      const overheads = figures.flatMap((f) => f.overheads);
      console.log(
        `${String(steps).padStart(5)} steps x ${turns}: ${round(median(figures.map((f) => f.msPerStep)))} ms/step, ` +
          `overhead median ${round(median(overheads))} ms, p99 ${round(percentile(overheads, 0.99))} ms, ` +
          `${round(figures[0].eventsPerStep, 2)} events and ${Math.round(median(figures.map((f) => f.bytesPerStep)))} bytes per step`,
      );
    }
    const slow = await runTurn(harness, 100, 0, SLOW_MODEL_MS);
    console.log(
      `  100 steps with a ${SLOW_MODEL_MS} ms model: overhead median ${round(median(slow.overheads))} ms ` +
        '(the prompt is archived while the model thinks)',
    );
    const all = [...results.values()].flat();
    const overheads = all.flatMap((f) => f.overheads);
    const of = (steps: number) => results.get(steps)!;
    console.log(`synchronous=${synchronous}; blobs on the filesystem (one fsynced prompt blob per step)`);
    console.log(
      JSON.stringify({
        step_overhead_median_ms: round(median(overheads)),
        step_overhead_p99_ms: round(percentile(overheads, 0.99)),
        ms_per_step_10: round(median(of(10).map((f) => f.msPerStep))),
        ms_per_step_1000: round(median(of(1_000).map((f) => f.msPerStep))),
        bytes_per_step_10: Math.round(median(of(10).map((f) => f.bytesPerStep))),
        bytes_per_step_1000: Math.round(median(of(1_000).map((f) => f.bytesPerStep))),
        events_per_step: round(median(all.map((f) => f.eventsPerStep)), 2),
      }),
    );
  } finally {
    await harness.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
