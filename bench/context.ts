/**
 * Context benchmark (`npm run bench:context`). Figures, not a timed test. A task runs 1 000 steps
 * through the real worker on the embedded SQLite store, with the product's tool set (starter,
 * plan, workspace and media tools), the OpenAI-family tokenizer (o200k_base) and a history budget
 * that forces compression; the model answers at once and, every 150 steps, loads a tool domain
 * (tools.load), as a long creative task moving from stage to stage would. Measured per step, for
 * each tool strategy (dynamic: the visible domains' definitions; masked: all of them, the visible
 * ones allowed):
 *
 * - build time: the step loop's context assembly (state folded from the store, history rendered,
 *   compression decided, layers built, tokens counted), taken around ContextAssembler.assemble;
 *   steps that wrote a summary segment are included;
 * - prompt tokens at steps 10, 100 and 1 000 (as recorded on ModelStepCommitted.context);
 * - the unchanged-prefix share: the longest common prefix of the request (tools, then messages,
 *   as a provider caches it) with the previous step's, over the request's length.
 *
 * Ends with one JSON line for tooling.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { type CompletionRequest, type CompletionResult, type ModelProvider, tokenizerForModel } from '@lomo/llm';
import { createMediaTools } from '@lomo/generation';
import { FakeGenerationRequests } from '@lomo/generation/testing';
import { ContextAssembler, createPlanTools } from '@lomo/runtime';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { createWorkspaceTools } from '@lomo/workspace';

const STEPS = 1_000;
const LOADS: Record<number, string> = { 150: 'document', 300: 'image', 450: 'video', 600: 'asset', 750: 'flow' };

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
const round = (n: number, digits = 3) => Number(n.toFixed(digits));

/** Answers at once: a note listing each step, a domain load now and then, an answer at the end. */
class BenchModel implements ModelProvider {
  readonly name = 'bench';
  readonly requests: string[] = [];
  complete(request: CompletionRequest): Promise<CompletionResult> {
    // The request as a provider caches it: tool definitions, then the messages in order.
    this.requests.push(JSON.stringify({ tools: request.tools, messages: request.messages }));
    const n = this.requests.length;
    const load = LOADS[n];
    const done = n >= STEPS;
    const toolCalls = done
      ? []
      : load !== undefined
        ? [{ id: `c${n}`, name: 'tools.load', arguments: JSON.stringify({ domains: [load] }) }]
        : [{ id: `c${n}`, name: 'notes.list', arguments: '{}' }];
    return Promise.resolve({
      text: done ? 'Finished.' : `Step ${n}: working through the plan.`,
      toolCalls,
      usage: { inputTokens: 1, outputTokens: 1 },
      finishReason: done ? 'stop' : 'tool_calls',
      model: 'bench',
    });
  }
}

function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

async function run(strategy: 'dynamic' | 'masked') {
  const generation = new FakeGenerationRequests();
  const harness = await RuntimeHarness.open({
    label: `bench-context-${strategy}`,
    tools: ({ store }) => [
      ...createPlanTools({ store, ids: { uuid: () => randomUUID() } }),
      ...createMediaTools(generation),
      // Definitions only: the bench never calls them.
      ...createWorkspaceTools({
        commands: {} as never,
        reader: {} as never,
        readModel: {} as never,
        checkpointIdFor: (callId) => callId,
      }),
    ],
  });
  const tokenizer = tokenizerForModel('gpt-4o-mini');
  tokenizer.count('warm up the encoding');
  const builds: number[] = [];
  const original = ContextAssembler.prototype.assemble;
  ContextAssembler.prototype.assemble = async function timed(this: ContextAssembler, ...args) {
    const started = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      builds.push(performance.now() - started);
    }
  };
  try {
    const { taskId } = await harness.createTask(
      'Produce the spring fair campaign: posters, a clip, a storyboard',
      'persistent',
    );
    await harness.decideOnTask(taskId, [
      { type: 'UpdateBrief', brief: 'Calm palettes, hand-drawn type, the river at dawn.', by: { kind: 'agent' } },
      {
        type: 'PlanChecklist',
        items: [
          { itemId: 'concept', title: 'Concept', dependsOn: [] },
          { itemId: 'posters', title: 'Posters', dependsOn: ['concept'] },
        ],
      },
    ]);
    const model = new BenchModel();
    const { worker } = harness.worker('bench', model, {
      runtime: {
        maxStepsPerTurn: STEPS + 10,
        toolStrategy: strategy,
        toolDomains: 'on_demand',
        contextTokens: 16_000,
        historyShare: 0.5,
      },
      context: { tokenizer },
    });
    await worker.wake({ taskId, reason: 'message' });
    const turnId = (await harness.read(`task-${taskId}`)).find((e) => e.type === 'TurnOpened')!.data as {
      turnId: string;
    };
    const steps = (await harness.read(`turn-${turnId.turnId}`))
      .filter((e) => e.type === 'ModelStepCommitted')
      .map(
        (e) =>
          e.data as {
            step: number;
            context: { promptTokens: number; layers: Array<{ layer: string; tokens: number }> };
          },
      );
    if (process.env.BENCH_LAYERS)
      for (const n of [100, 400, 700, 1000])
        console.log(n, JSON.stringify(steps.find((s) => s.step === n)?.context.layers));
    const shares: number[] = [];
    for (let i = 1; i < model.requests.length; i += 1)
      shares.push(commonPrefix(model.requests[i - 1], model.requests[i]) / model.requests[i].length);
    const tokensAt = (n: number) => steps.find((s) => s.step === n)?.context.promptTokens ?? NaN;
    return {
      strategy,
      buildMedian10: median(builds.slice(0, 10)),
      buildMedian1000: median(builds.slice(STEPS - 100, STEPS)),
      buildP99: sorted(builds)[Math.floor(builds.length * 0.99)],
      tokens10: tokensAt(10),
      tokens100: tokensAt(100),
      tokens1000: tokensAt(STEPS),
      prefixShare: median(shares),
      prefixShareMean: shares.reduce((a, b) => a + b, 0) / shares.length,
      steps: steps.length,
    };
  } finally {
    ContextAssembler.prototype.assemble = original;
    await harness.close();
  }
}

async function main(): Promise<void> {
  const results = [];
  for (const strategy of ['dynamic', 'masked'] as const) {
    const r = await run(strategy);
    results.push(r);
    console.log(
      `${strategy}: build median ${round(r.buildMedian10)} ms (steps 1-10), ${round(r.buildMedian1000)} ms (steps 901-1000), p99 ${round(r.buildP99)} ms; ` +
        `prompt tokens ${r.tokens10} / ${r.tokens100} / ${r.tokens1000} at steps 10 / 100 / 1000; ` +
        `unchanged prefix ${round(r.prefixShare)} median, ${round(r.prefixShareMean)} mean over ${r.steps} steps`,
    );
  }
  const [dynamic, masked] = results;
  // The default (LOMO_TOOL_STRATEGY) is what the runtime ships with; the figures say why.
  const defaultStrategy = 'dynamic';
  console.log(
    JSON.stringify({
      build_ms_median_10: round(dynamic.buildMedian10),
      build_ms_median_1000: round(dynamic.buildMedian1000),
      prompt_tokens_100: dynamic.tokens100,
      prompt_tokens_1000: dynamic.tokens1000,
      prefix_share_dynamic: round(dynamic.prefixShare),
      prefix_share_masked: round(masked.prefixShare),
      default_strategy: defaultStrategy,
      masked_build_ms_median_1000: round(masked.buildMedian1000),
      masked_prompt_tokens_1000: masked.tokens1000,
    }),
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
