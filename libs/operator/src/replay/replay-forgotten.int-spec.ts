import { randomUUID } from 'node:crypto';
import { canonicalJson, streams } from '@lomo/contracts';
import { createModelProvider, type CompletionRequest, type ModelProvider } from '@lomo/llm';
import { chatCompletionBody, startFakeOpenAIServer } from '@lomo/llm/testing';
import { silentLogger } from '@lomo/observability';
import { resolveRuntimeOptions } from '@lomo/runtime';
import { ToolRegistry } from '@lomo/tools';
import { InspectionWorld } from '../testing/inspection-world';
import { tellTaskStory, type TaskStory } from '../testing/inspection-story';
import { operatorCaller } from '../testing/rebuild-world';
import { recordScenario } from '../testing/replay-scenario';
import { replayTurn } from './replay-turn';
import type { ReplayOptions } from './replay.types';

/** A model that answers "ok" and keeps every request it was sent, as the wire would carry it. */
function spyModel(): ModelProvider & { sent: CompletionRequest[] } {
  const sent: CompletionRequest[] = [];
  return {
    name: 'spy',
    sent,
    complete: async (request) => {
      sent.push(request);
      return {
        text: 'ok',
        toolCalls: [],
        usage: { inputTokens: 1, outputTokens: 1 },
        finishReason: 'stop',
        model: 'spy',
      };
    },
  };
}

const deps = {
  tools: new ToolRegistry([]),
  options: resolveRuntimeOptions({ workerId: 'replay' }),
  logger: silentLogger,
};

describe('forgotten content stays forgotten in a replay', () => {
  let world: InspectionWorld;
  let story: TaskStory;
  beforeEach(async () => {
    world = InspectionWorld.open();
    story = await tellTaskStory(world);
  });
  afterEach(async () => world.close());

  const replay = (turn: number, options: ReplayOptions) =>
    replayTurn(world.sources, operatorCaller, story.turns[turn], options, deps);

  it('a turn from before a forgetting is rebuilt without the purged message, and its steps are flagged', async () => {
    // Given turn 2, whose step 1 consumed a message the person later forgot (ContextExcluded,
    // later in the log) and whose step 2 had it in its history
    const model = spyModel();

    // When each of its steps is replayed with a model that records what it is sent
    const first = await replay(1, { model, step: 1 });
    const second = await replay(1, { model, step: 2 });

    // Then neither prompt sent holds the forgotten text, nor the reply that quoted it
    expect(model.sent).toHaveLength(2);
    for (const request of model.sent) {
      const wire = canonicalJson({ messages: request.messages, tools: request.tools });
      expect(wire).not.toContain(story.secret);
      expect(wire).not.toContain('4711');
    }
    // The forgettings were applied, rather than the history lost: step 2 shows the placeholders
    const history = model.sent[1].messages.map((m) => m.content);
    expect(history).toContain('(A message the person asked to forget.)');
    expect(history.some((c) => c.includes('relied on something the person asked to forget'))).toBe(true);
    // And both steps are flagged: step 1 was excluded, step 2 was built while the message was in context
    expect(first.steps[0].forgotten).toEqual({ flagged: true, reason: 'forgotten' });
    expect(second.steps[0].forgotten).toEqual({
      flagged: true,
      reason: 'built while forgotten content was in the context',
    });
    // The report never shows it either (the recorded reply quoted it)
    expect(JSON.stringify([first, second])).not.toContain(story.secret);
    expect(first.steps[0].reply.recorded).toEqual({ purged: true, reason: 'forgotten' });
  });

  it('with the recorded replies too, the report holds no forgotten text, and a turn built after the forgetting is not flagged', async () => {
    // When the turn before the forgetting and the one after it are replayed with the recorded replies
    const before = await replay(1, { model: 'recorded' });
    const after = await replay(2, { model: 'recorded' });

    // Then the earlier turn's steps are flagged and nothing forgotten is shown; the later one is not flagged
    expect(before.steps.map((s) => s.forgotten.flagged)).toEqual([true, true]);
    expect(JSON.stringify(before)).not.toContain(story.secret);
    expect(after.steps.map((s) => s.forgotten.flagged)).toEqual([false]);
    // The story's prompts were written by hand, not by the assembler: every step drifts (a finding)
    expect(before.steps.map((s) => s.context?.status)).toEqual(['context_drift', 'context_drift']);
  });

  it('through the OpenAI-compatible adapter, the bytes on the wire hold no forgotten text', async () => {
    // Given a local server speaking the chat-completions wire format, behind the real adapter
    const server = await startFakeOpenAIServer(() => ({ body: chatCompletionBody({ content: 'ok' }) }));
    try {
      const model = createModelProvider({
        provider: 'openai',
        baseUrl: server.baseUrl,
        apiKey: 'sk-test',
        model: 'gpt-test',
      });

      // When both steps of the turn from before the forgetting are replayed with it
      const reports = [await replay(1, { model, step: 1 }), await replay(1, { model, step: 2 })];

      // Then two requests went out, and none of their bytes holds the forgotten message
      expect(server.requests).toHaveLength(2);
      for (const request of server.requests) {
        expect(request.raw.toString('utf8')).not.toContain(story.secret);
        expect(request.raw.toString('utf8')).not.toContain('4711');
      }
      expect(reports.map((r) => r.steps[0].forgotten.flagged)).toEqual([true, true]);
    } finally {
      await server.close();
    }
  });
});

describe('a turn the runtime recorded, then forgotten', () => {
  it('is rebuilt without the forgotten message: the steps are flagged and drift exactly where it was', async () => {
    // Given the recorded scenario, whose second turn consumed "Also add a note called errands:
    // post office" at step 1, and a forgetting of that message (and of the step that relied on it)
    const scenario = await recordScenario('replay-forgotten');
    try {
      const { harness, taskId, turns } = scenario;
      const forgotten = 'Also add a note called errands: post office';
      const delivered = (await harness.read(streams.task(taskId))).filter((e) => e.type === 'MessageDeliveredToInbox');
      const message = delivered
        .map((e) => e.data as { messageId: string; text: string })
        .find((d) => d.text === forgotten)!;
      await harness.decideOnTask(taskId, [
        {
          type: 'ExcludeContext',
          forgettingId: randomUUID(),
          messageIds: [message.messageId],
          steps: [{ turnId: turns[1], step: 1 }],
        },
      ]);
      const model = spyModel();

      // When the second turn is replayed step by step, and the first turn too
      const first = await replayTurn(
        { events: harness.store, blobs: harness.blobs },
        operatorCaller,
        turns[1],
        { model, step: 1 },
        scenario.worker.deps,
      );
      const second = await replayTurn(
        { events: harness.store, blobs: harness.blobs },
        operatorCaller,
        turns[1],
        { model, step: 2 },
        scenario.worker.deps,
      );
      const earlier = await replayTurn(
        { events: harness.store, blobs: harness.blobs },
        operatorCaller,
        turns[0],
        { model: 'recorded' },
        scenario.worker.deps,
      );

      // Then no request holds the message, both steps are flagged, and each drifts at the layer
      // that held it: step 1's input (its claim), step 2's recent history (step 1 in full)
      expect(model.sent).toHaveLength(2);
      for (const request of model.sent) expect(canonicalJson(request.messages)).not.toContain(forgotten);
      expect(first.steps[0]).toMatchObject({
        forgotten: { flagged: true, reason: 'forgotten' },
        context: { status: 'context_drift', firstDifferingLayer: 'input' },
      });
      expect(second.steps[0]).toMatchObject({
        forgotten: { flagged: true, reason: 'built while forgotten content was in the context' },
        context: { status: 'context_drift', firstDifferingLayer: 'recent' },
      });
      // The turn before the message came is untouched by the forgetting: reproduced, not flagged
      expect(earlier.steps.map((s) => [s.context?.status, s.forgotten.flagged])).toEqual([
        ['reproduced', false],
        ['reproduced', false],
        ['reproduced', false],
      ]);
    } finally {
      await scenario.close();
    }
  });
});
