import type { ChatMessage, CompletionRequest } from '../model-provider.port';
import { ReactiveModelProvider } from './reactive-model-provider';
import { marker, person, RULES, taskState, TOOLS } from './reactive-prompts.fixtures';

// Rule 3 (README.md, "Recalled memory"): what the recalled-memory layer and the profile show is
// carried into the generation prompt; what they do not show (forgotten) cannot be.

const model = new ReactiveModelProvider();
const MEMORIES: ChatMessage = {
  role: 'system',
  content:
    'Remembered about the person (recalled for this step; the brief and the latest messages win over these):\n- main colour: blue (said by the person; since 2026-12-01)\n- prefers warm tones (inferred, not said by the person; since 2026-12-02)',
};
const PROFILE: ChatMessage = {
  role: 'system',
  content: 'You are Lomo, a creative agent.\n\nAbout the person (profile version 3):\n- works for a bakery',
};

const posterRequest = (prefix: ChatMessage, tail: readonly ChatMessage[]): CompletionRequest => ({
  messages: [prefix, marker('message'), taskState('a poster of a fox'), ...tail, person('make a poster of a fox')],
  tools: TOOLS,
});
const promptOf = (result: { toolCalls: { name: string; arguments: string }[] }) => {
  expect(result.toolCalls.map((c) => c.name)).toEqual(['image.generate']);
  return String(JSON.parse(result.toolCalls[0].arguments).prompt);
};

describe('reactive rule 3: recalled memory', () => {
  it('given recalled preferences and a profile, the generation prompt carries them', async () => {
    const prompt = promptOf(await model.complete(posterRequest(PROFILE, [MEMORIES])));
    expect(prompt).toMatch(/^a poster of a fox/);
    expect(prompt).toContain('main colour: blue');
    expect(prompt).toContain('prefers warm tones');
    expect(prompt).toContain('works for a bakery');
  });

  it('given the same prompt without them (forgotten, or dropped by the context), the prompt has none of them', async () => {
    const prompt = promptOf(await model.complete(posterRequest(RULES, [])));
    expect(prompt).toBe('a poster of a fox');
  });

  it("takes no preference from a profile that remembers nothing (the runtime's placeholder texts)", async () => {
    for (const placeholder of [
      'No profile is kept yet: rely on what the person says in this task.',
      'Nothing is remembered about the person yet.',
    ]) {
      const prefix: ChatMessage = {
        role: 'system',
        content: `You are Lomo.\n\nAbout the person (profile version 1):\n${placeholder}`,
      };
      expect(promptOf(await model.complete(posterRequest(prefix, [])))).toBe('a poster of a fox');
    }
  });
});
