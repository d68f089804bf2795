import { canonicalJson } from '@lomo/contracts';
import type { CompletionRequest, ModelProvider } from '@lomo/llm';
import { silentLogger } from '@lomo/observability';
import { resolveRuntimeOptions } from '@lomo/runtime';
import { ToolRegistry } from '@lomo/tools';
import { InspectionWorld } from '../testing/inspection-world';
import { tellTaskStory, type TaskStory } from '../testing/inspection-story';
import { operatorCaller } from '../testing/rebuild-world';
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
});
