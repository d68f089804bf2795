import { randomUUID } from 'node:crypto';
import { makeCallId, streams, type TestMutation } from '@lomo/contracts';
import { GenerationHarness } from '@lomo/generation/testing';
import { generationJobId } from '@lomo/generation';
import { ScriptedModelProvider } from '@lomo/llm';
import { OfflineMemoryExtractor } from '@lomo/memory';
import { collaborationMetrics, metricFigures } from '@lomo/operator';
import { PromptArchive } from '@lomo/runtime';
import { HARNESS_WORKSPACE, RuntimeHarness } from '@lomo/runtime/testing';
import { MemoryRig } from '../memory/support/memory-rig';

// Mutation switches against the collaboration metrics themselves (@lomo/operator, computed from
// the event log alone): with the switch off the figure is at its ideal, with it on it is not.
// The drills show the same on whole scenarios; these are the smallest logs that show it.

const switches = (names: TestMutation[]) => ({ mutation: (name: TestMutation) => names.includes(name) });
const posterCall = {
  label: 'poster',
  reply: { toolCalls: [{ name: 'image.generate', arguments: { prompt: 'A poster of the harbour at dawn' } }] },
};

describe('mutation switches make their metric fail', () => {
  describe('on the generation service', () => {
    let h: GenerationHarness;
    afterEach(async () => h?.close());

    /** A task whose model orders one poster; `repeat` orders the same call again (a retried call). */
    async function figures(mutations: TestMutation[], repeat = false) {
      h = await GenerationHarness.open({
        label: 'mutation-metrics',
        upstream: { config: { latencyMs: 2_000, progressTicks: 1 } },
        testControl: switches(mutations),
      });
      const { taskId } = await h.runtime.createTask('make a poster of the harbour', 'persistent');
      const model = new ScriptedModelProvider([posterCall, { label: 'answer', reply: { text: 'Here it is.' } }]);
      const executor = h.runtime.worker('executor-1', model);
      await h.runtime.consumeWakeUps(executor);
      await executor.worker.wake({ taskId, reason: 'message' });
      await h.settle();
      if (repeat) {
        const turnId = (await h.read(streams.task(taskId)))
          .filter((e) => e.type === 'TurnOpened')
          .map((e) => (e.data as { turnId: string }).turnId)[0];
        const callId = makeCallId(turnId, 1, 0);
        const first = (await h.read(streams.generation(generationJobId(HARNESS_WORKSPACE, callId))))[0].data as {
          operation: string;
          params: { prompt: string; options: Record<string, unknown> };
        };
        await h.orders.request({
          workspaceId: HARNESS_WORKSPACE,
          taskId,
          turnId,
          callId,
          correlationId: turnId,
          kind: 'image',
          operation: first.operation,
          prompt: first.params.prompt,
          options: first.params.options,
        });
      }
      for (let t = 0; t < 4_000; t += 1_000) await h.advance(1_000);
      return metricFigures(await collaborationMetrics({ events: await h.runtime.store.readAll() }));
    }

    // One harness per test: each opens its own data directory and closes it after.
    it('no_budget_check off: cost_over_budget 0', async () => {
      expect((await figures([])).cost_over_budget).toBe(0);
    });
    it('no_budget_check on: cost_over_budget > 0', async () => {
      expect((await figures(['no_budget_check'])).cost_over_budget).toBeGreaterThan(0);
    });
    it('no_duplicate_check off: a call ordered again is one job, duplicate_generations 0', async () => {
      expect((await figures([], true)).duplicate_generations).toBe(0);
    });
    it('no_duplicate_check on: a call ordered again is a second paid job, duplicate_generations > 0', async () => {
      expect((await figures(['no_duplicate_check'], true)).duplicate_generations).toBeGreaterThan(0);
    });
  });

  describe('on the memory runner', () => {
    let harness: RuntimeHarness;
    afterEach(async () => harness?.close());
    const M1 = "Our brand's main colour is blue.";

    async function figures(mutations: TestMutation[]) {
      harness = await RuntimeHarness.open({ label: 'mutation-metrics-memory' });
      const rig = new MemoryRig(harness, new OfflineMemoryExtractor(), switches(mutations));
      const { taskId } = await rig.startTask('Design our brand kit');
      const m1 = await rig.say(taskId, M1);
      const evidence = Object.values((await rig.state()).evidence).find(
        (e) => e.source.kind === 'message' && e.source.messageId === m1,
      )!;
      const forgettingId = randomUUID();
      await rig.decide([
        {
          type: 'RequestForgetting',
          forgettingId,
          target: { kind: 'evidence', evidenceIds: [evidence.evidenceId] },
          requestedBy: rig.user,
        },
        { type: 'ConfirmForgetting', forgettingId, confirmedBy: rig.user },
      ]);
      await rig.feed();
      await rig.say(taskId, 'Now the first poster, please.');
      const archive = new PromptArchive(harness.blobs);
      const metrics = await collaborationMetrics(
        {
          events: await harness.store.readAll(),
          promptText: async (ref) => {
            const prompt = await archive.load(ref as Parameters<PromptArchive['load']>[0]);
            return prompt === undefined ? null : JSON.stringify(prompt.messages);
          },
        },
        { forgottenTexts: [M1] },
      );
      return metricFigures(metrics);
    }

    it('no_forgetting_cascade off: forgotten_reappearing 0', async () => {
      expect((await figures([])).forgotten_reappearing).toBe(0);
    });
    it('no_forgetting_cascade on: forgotten_reappearing > 0', async () => {
      expect((await figures(['no_forgetting_cascade'])).forgotten_reappearing).toBeGreaterThan(0);
    });
  });
});
