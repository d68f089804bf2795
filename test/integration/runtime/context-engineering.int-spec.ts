import { createHash } from 'node:crypto';
import { z } from 'zod';
import { streams, type EventEnvelope } from '@lomo/contracts';
import {
  OpenAIModelProvider,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResult,
  type ModelProvider,
} from '@lomo/llm';
import { chatCompletionBody, prefixPartsOf, startFakeOpenAIServer, type FakeOpenAIServer } from '@lomo/llm/testing';
import { createPlanTools, PromptArchive, type FaultInjector, type ProfileSnapshot } from '@lomo/runtime';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { defineTool, okResult } from '@lomo/tools';
import { ofType, turnIdsOf } from './support/turn-events';

// Issue 17's must-shows through the real worker on real SQLite: the stable prefix as the openai
// adapter sends it, a 500-step task kept under its budget by append-only summary segments, a
// corrected constraint gone from every later prompt, and tool domains enforced by the ledger.

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
type Committed = { step: number; promptRef: { hash: string; bytes: number; contentType: string }; context?: StepCtx };
type StepCtx = {
  layers: Array<{ layer: string; tokens: number }>;
  prefix: { hash: string; changed: string | null; profileVersion: number | null };
  tools: { strategy: string; domains: string[] };
  segments: string[];
  budgetTokens: number;
  promptTokens: number;
};

/** A profile whose version the test moves on. */
class MovingProfile implements ProfileSnapshot {
  version = 1;
  current() {
    return Promise.resolve({ version: this.version, text: `Profile v${this.version}: prefers calm palettes.` });
  }
}

/** A model that lists notes every step (a long, steady task) and ends after `steps`. */
class SteadyModel implements ModelProvider {
  readonly name = 'steady';
  readonly requests: CompletionRequest[] = [];
  constructor(private readonly steps: number) {}
  complete(request: CompletionRequest): Promise<CompletionResult> {
    this.requests.push(request);
    const done = this.requests.length >= this.steps;
    return Promise.resolve({
      text: done ? 'Finished.' : `Step ${this.requests.length}: listing the notes again.`,
      toolCalls: done ? [] : [{ id: `c${this.requests.length}`, name: 'notes.list', arguments: '{}' }],
      usage: { inputTokens: 1, outputTokens: 1 },
      finishReason: done ? 'stop' : 'tool_calls',
      model: 'steady',
    });
  }
}

describe('context engineering through the step loop', () => {
  let harness: RuntimeHarness;
  let server: FakeOpenAIServer | undefined;
  const effects: string[] = [];

  beforeEach(async () => {
    effects.length = 0;
    harness = await RuntimeHarness.open({
      label: 'context',
      tools: ({ store }) => [
        ...createPlanTools({ store, ids: { uuid: () => crypto.randomUUID() } }),
        defineTool({
          name: 'image.sketch',
          description: 'Sketch an image idea.',
          domain: 'image',
          sideEffect: 'read',
          idempotent: true,
          input: z.strictObject({ idea: z.string() }),
          async run(input) {
            effects.push(input.idea);
            return okResult({ sketched: input.idea });
          },
        }),
      ],
    });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await harness.close();
  });

  const turnEvents = async (taskId: string) => {
    const all: EventEnvelope[] = [];
    for (const turnId of await turnIdsOf(harness, taskId)) all.push(...(await harness.read(streams.turn(turnId))));
    return all;
  };

  it('prefix stability: across 50 steps the prefix bytes the openai adapter sends are identical; a profile change changes them once and the step records why', async () => {
    const profile = new MovingProfile();
    server = await startFakeOpenAIServer((_, index) => {
      // The 25th request is being answered: from step 26 on the person's profile has version 2.
      if (index === 24) profile.version = 2;
      return {
        body:
          index < 49
            ? chatCompletionBody({ toolCalls: [{ id: `call_${index}`, name: 'notes__list', arguments: '{}' }] })
            : chatCompletionBody({ content: 'All listed.' }),
      };
    });
    const model = new OpenAIModelProvider({ apiKey: 'sk-test', model: 'gpt-4o-mini', baseUrl: server.baseUrl });
    const { taskId } = await harness.createTask('List my notes, fifty times over', 'persistent');
    const { worker } = harness.worker('worker-a', model, { runtime: { maxStepsPerTurn: 60 }, context: { profile } });
    await worker.wake({ taskId, reason: 'message' });

    expect(server.requests).toHaveLength(50);
    // The cache-eligible prefix as sent: the first system message and the serialized tools.
    const prefixes = server.requests.map((r) => {
      const parts = prefixPartsOf(r.raw);
      return sha(Buffer.concat([parts.system[0], Buffer.from('\n'), parts.tools ?? Buffer.alloc(0)]));
    });
    expect(new Set(prefixes.slice(0, 25)).size).toBe(1);
    expect(new Set(prefixes.slice(25)).size).toBe(1);
    expect(prefixes[25]).not.toBe(prefixes[24]);
    // Every request of the task carries its cache key.
    expect(server.requests.every((r) => (r.body as { prompt_cache_key?: string }).prompt_cache_key === taskId)).toBe(
      true,
    );
    const steps = ofType<Committed>(await turnEvents(taskId), 'ModelStepCommitted');
    expect(steps.map((s) => (s.context === undefined ? 'no context' : s.context.prefix.changed))).toEqual([
      'first_step',
      ...Array(24).fill(null),
      'profile_version',
      ...Array(24).fill(null),
    ]);
    expect(new Set(steps.slice(0, 25).map((s) => s.context?.prefix.hash)).size).toBe(1);
  });

  it('a 500-step task stays under its budget at every step: brief and checklist at every step, segments appended and never rewritten, each linked to its steps, and the constraint of step 10 still present at step 500', async () => {
    const { taskId } = await harness.createTask('Keep the notes tidy for the poster campaign', 'persistent');
    await harness.decideOnTask(taskId, [
      {
        type: 'UpdateBrief',
        brief: 'A calm poster series for the spring fair.',
        by: { kind: 'user', userId: 'user_1' },
      },
      {
        type: 'PlanChecklist',
        items: [
          { itemId: 'tidy', title: 'Tidy the notes', dependsOn: [] },
          { itemId: 'posters', title: 'Posters', dependsOn: ['tidy'] },
        ],
      },
    ]);
    const faults: FaultInjector = {
      at: (context) =>
        context.point === 'after-step-committed' && context.step === 9
          ? harness.deliver(taskId, 'The background is white. Keep going.').then(() => undefined)
          : undefined,
    };
    const model = new SteadyModel(500);
    const { worker } = harness.worker('worker-a', model, {
      runtime: { maxStepsPerTurn: 600, contextTokens: 8_000, historyShare: 0.4 },
      faults,
    });
    await worker.wake({ taskId, reason: 'message' });

    // The task's first turn: 500 steps (the runtime goes on afterwards, the checklist being open).
    const [first] = await turnIdsOf(harness, taskId);
    const steps = ofType<Committed>(await harness.read(streams.turn(first)), 'ModelStepCommitted');
    expect(steps).toHaveLength(500);
    for (const s of steps)
      expect({ step: s.step, under: s.context!.promptTokens <= s.context!.budgetTokens }).toEqual({
        step: s.step,
        under: true,
      });
    const archive = new PromptArchive(harness.blobs);
    const tailOf = async (s: Committed) => {
      const prompt = (await archive.load(s.promptRef))!;
      const tail = prompt.layers.find((l) => l.layer === 'tail')!;
      return {
        prompt,
        tail: prompt.messages
          .slice(tail.start, tail.end)
          .map((m) => m.content)
          .join('\n'),
      };
    };
    for (const s of steps.filter((x) => x.step % 25 === 0 || x.step === 1)) {
      const { tail } = await tailOf(s);
      expect(tail).toContain('Brief (version 1):\nA calm poster series for the spring fair.');
      expect(tail).toContain('Checklist:\n- [pending] tidy: Tidy the notes');
    }
    // Segments: appended, never rewritten; each names the steps it covers, which follow each other.
    const task = await harness.read(streams.task(taskId));
    const segments = ofType<{
      segmentId: string;
      covers: { from: { step: number }; to: { step: number }; steps: number };
      text: { hash: string };
      supersedes: string[];
    }>(task, 'HistorySegmentAppended');
    expect(segments.length).toBeGreaterThan(3);
    expect(new Set(segments.map((s) => s.segmentId)).size).toBe(segments.length);
    for (const s of segments) {
      expect(s.covers.to.step - s.covers.from.step + 1).toBe(s.covers.steps);
      expect(await harness.blobs.get(s.text.hash)).toBeDefined();
    }
    const firsts = segments.filter((s) => s.supersedes.length === 0);
    for (let i = 1; i < firsts.length; i += 1)
      expect(firsts[i].covers.from.step).toBe(firsts[i - 1].covers.to.step + 1);
    // Step 500 still carries the person's constraint of step 10, in a segment.
    const last = await tailOf(steps.at(-1)!);
    const history = last.prompt.layers.find((l) => l.layer === 'history')!;
    const historyText = last.prompt.messages
      .slice(history.start, history.end)
      .map((m) => m.content)
      .join('\n');
    expect(historyText).toContain('The background is white');
    expect(last.tail).toContain('- background: The background is white');
    expect(steps.at(-1)!.context!.segments.length).toBeGreaterThan(0);
  }, 120_000);

  it('a corrected constraint ("the background is white" → "make it dark blue") no longer appears after the correction, in raw history, summaries or the tail', async () => {
    const { taskId } = await harness.createTask('Keep the notes tidy for the poster campaign', 'persistent');
    const say: Record<number, string> = { 9: 'The background is white.', 120: 'Make it dark blue.' };
    const faults: FaultInjector = {
      at: (context) =>
        context.point === 'after-step-committed' && context.step !== undefined && say[context.step] !== undefined
          ? harness.deliver(taskId, say[context.step]).then(() => undefined)
          : undefined,
    };
    const model = new SteadyModel(200);
    const { worker } = harness.worker('worker-a', model, {
      runtime: { maxStepsPerTurn: 300, contextTokens: 8_000, historyShare: 0.4 },
      faults,
    });
    await worker.wake({ taskId, reason: 'message' });

    const archive = new PromptArchive(harness.blobs);
    const steps = ofType<Committed>(await turnEvents(taskId), 'ModelStepCommitted');
    const texts = async (s: Committed) =>
      (await archive.load(s.promptRef))!.messages.map((m: ChatMessage) => m.content).join('\n');
    // Before the correction the white background reached the prompts (in a segment at some point).
    expect(await texts(steps[100])).toContain('The background is white');
    // From the step that read the correction on, never again.
    for (const s of steps.slice(120)) {
      const text = await texts(s);
      expect({ step: s.step, stale: text.includes('The background is white') }).toEqual({ step: s.step, stale: false });
    }
    expect(await texts(steps.at(-1)!)).toContain('- background: Make it dark blue');
    // The segment that stated it was superseded by a corrected one, not edited.
    const task = await harness.read(streams.task(taskId));
    const corrected = ofType<{ supersedes: string[] }>(task, 'HistorySegmentAppended').filter(
      (s) => s.supersedes.length > 0,
    );
    expect(corrected.length).toBeGreaterThan(0);
    expect(
      ofType<{ constraints: Array<{ replaces?: string }> }>(task, 'ConstraintsNoted').at(-1)?.constraints[0].replaces,
    ).toBeDefined();
  }, 60_000);

  it('a call to a tool outside the visible domains is refused with a typed error and nothing runs; tools.load makes it callable from the next step', async () => {
    const { taskId } = await harness.createTask('Sketch a few ideas', 'persistent');
    const replies = [
      { toolCalls: [{ id: 'a', name: 'image.sketch', arguments: '{"idea":"a lighthouse"}' }] },
      { toolCalls: [{ id: 'b', name: 'tools.load', arguments: '{"domains":["image"]}' }] },
      { toolCalls: [{ id: 'c', name: 'image.sketch', arguments: '{"idea":"a harbour"}' }] },
      { toolCalls: [] as Array<{ id: string; name: string; arguments: string }> },
    ];
    const seen: CompletionRequest[] = [];
    const model: ModelProvider = {
      name: 'sketcher',
      complete: (request) => {
        seen.push(request);
        const reply = replies[seen.length - 1];
        return Promise.resolve({
          text: reply.toolCalls.length === 0 ? 'Done.' : '',
          toolCalls: reply.toolCalls,
          usage: { inputTokens: 1, outputTokens: 1 },
          finishReason: reply.toolCalls.length === 0 ? 'stop' : 'tool_calls',
          model: 'sketcher',
        });
      },
    };
    const { worker } = harness.worker('worker-a', model, { runtime: { toolDomains: 'on_demand' } });
    await worker.wake({ taskId, reason: 'message' });

    const turn = await turnEvents(taskId);
    const results = ofType<{ callId: string; status: string; error?: { code: string } }>(turn, 'ToolCallCompleted');
    expect(results[0]).toMatchObject({ status: 'error', error: { code: 'TOOL_NOT_VISIBLE' } });
    expect(ofType<{ callId: string }>(turn, 'ToolCallStarted').map((s) => s.callId)).not.toContain(results[0].callId);
    expect(effects).toEqual(['a harbour']);
    // What the model was offered: no image tool before the load, the image tool after it.
    expect(seen[0].tools.map((t) => t.name)).not.toContain('image.sketch');
    expect(seen[2].tools.map((t) => t.name)).toContain('image.sketch');
    const steps = ofType<Committed>(turn, 'ModelStepCommitted');
    expect(steps.map((s) => s.context?.tools.domains)).toEqual([
      ['core'],
      ['core'],
      ['core', 'image'],
      ['core', 'image'],
    ]);
    expect(steps[2].context?.prefix.changed).toBe('tool_set');
    expect(ofType(await harness.read(streams.task(taskId)), 'ToolDomainsLoaded')).toEqual([
      { domains: ['image'], turnId: steps.length > 0 ? (await turnIdsOf(harness, taskId))[0] : '', step: 2 },
    ]);
  });
});
