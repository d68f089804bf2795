import { randomUUID } from 'node:crypto';
import type { CompletionRequest, ModelProvider } from '@lomo/llm';
import { silentLogger } from '@lomo/observability';
import { resolveRuntimeOptions } from '@lomo/runtime';
import { ToolRegistry } from '@lomo/tools';
import { isOperatorInputError } from '../errors';
import { callerOf, InspectionWorld } from '../testing/inspection-world';
import { tellTaskStory, type TaskStory } from '../testing/inspection-story';
import { operatorCaller } from '../testing/rebuild-world';
import { parsePromptPatch, type PromptPatch } from './prompt-patch';
import { replayTurn } from './replay-turn';

const deps = {
  tools: new ToolRegistry([]),
  options: resolveRuntimeOptions({ workerId: 'replay' }),
  logger: silentLogger,
};

describe('a replay refuses bad input with a typed error and changes nothing', () => {
  let world: InspectionWorld;
  let story: TaskStory;
  const sent: CompletionRequest[] = [];
  const model: ModelProvider = {
    name: 'never-asked',
    complete: async (request) => {
      sent.push(request);
      return {
        text: 'ok',
        toolCalls: [],
        usage: { inputTokens: 1, outputTokens: 1 },
        finishReason: 'stop',
        model: 'x',
      };
    },
  };
  beforeAll(async () => {
    world = InspectionWorld.open();
    story = await tellTaskStory(world);
  });
  afterAll(async () => world.close());

  const refusal = async (run: () => Promise<unknown>) => {
    const head = await world.events.headPosition();
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    // Nothing was appended, and no model was asked
    expect(await world.events.headPosition()).toBe(head);
    expect(sent).toEqual([]);
    expect(isOperatorInputError(error)).toBe(true);
    return error as { code: string; badInput: boolean; message: string };
  };

  it.each([
    ['an unknown turn', () => randomUUID(), 'NOT_FOUND'],
    ['a name that is no turn id', () => 'not a turn', 'NOT_FOUND'],
    ['a task id instead of a turn id', () => story.taskId, 'NOT_FOUND'],
  ])('%s', async (_name, turnId, code) => {
    const error = await refusal(() => replayTurn(world.sources, operatorCaller, turnId(), { model }, deps));

    expect(error).toMatchObject({ code, badInput: true });
  });

  it.each([[3], [0], [1.5]])('step %p of a turn of two steps', async (step) => {
    const error = await refusal(() => replayTurn(world.sources, operatorCaller, story.turns[1], { model, step }, deps));

    expect(error).toMatchObject({ code: 'STEP_BEYOND_TURN', badInput: true });
    expect(error.message).toContain('has 2 committed step(s)');
  });

  it.each([
    ['not JSON', '{"patches": ['],
    ['no patches', '{"patches": []}'],
    ['an unknown layer', '{"patches": [{"layer": "footer", "find": "a", "replace": "b"}]}'],
    ['an empty find', '{"patches": [{"layer": "prefix", "find": "", "replace": "b"}]}'],
    ['an unknown key', '{"patches": [{"tool": "image.generate", "description": "x", "extra": 1}]}'],
  ])('a malformed prompt patch: %s', async (_name, text) => {
    const error = await refusal(async () => parsePromptPatch(text));

    expect(error).toMatchObject({ code: 'BAD_PROMPT_PATCH', badInput: true });
  });

  it('a malformed patch handed to the replay directly', async () => {
    const patch = { patches: [{ brief: 42 }] } as unknown as PromptPatch;

    const error = await refusal(() =>
      replayTurn(world.sources, operatorCaller, story.turns[1], { model, promptPatch: patch }, deps),
    );

    expect(error).toMatchObject({ code: 'BAD_PROMPT_PATCH', badInput: true });
  });

  it.each([
    ["a person's token for another workspace", callerOf('person', 'ws2', 'u9')],
    ["a person's token for the turn's own workspace", callerOf('person', 'ws1', 'u1')],
    ["an integration's token", callerOf('integration', 'ws1', 'u1')],
  ])('%s: replays are for operators', async (_name, caller) => {
    const error = await refusal(() => replayTurn(world.sources, caller, story.turns[1], { model }, deps));

    expect(error).toMatchObject({ code: 'OPERATOR_REQUIRED', badInput: true });
  });
});
