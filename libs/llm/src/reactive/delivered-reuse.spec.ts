import type { ChatMessage, CompletionRequest } from '../model-provider.port';
import { PHRASES } from '../offline/phrases';
import { ReactiveModelProvider } from './reactive-model-provider';
import { marker, ok, person, RULES, step, taskState, TOOLS } from './reactive-prompts.fixtures';

// Rule 5 (README.md, "No duplicates"): a request whose delivery the prompt shows is not ordered
// again; without that delivery in the prompt, it is.

const model = new ReactiveModelProvider();
const ASK = 'make a poster of a fox';

const request = (earlier: readonly ChatMessage[]): CompletionRequest => ({
  messages: [RULES, ...earlier, marker('message'), taskState('a poster of a fox'), person(ASK)],
  tools: TOOLS,
});
const delivered = [
  marker('message'),
  person(ASK),
  ...step('g1', 'image.generate', { prompt: 'a poster of a fox' }, ok({ artifactId: 'img-7', kind: 'image' })),
];

describe('reactive rule 5: no duplicates', () => {
  it('given a delivered artefact for the same request in its prompt, it names it and orders nothing', async () => {
    const result = await model.complete(request(delivered));
    expect(result.toolCalls).toEqual([]);
    expect(result.text).toBe(PHRASES.en.mediaReady('image', 'img-7'));
  });

  it('given the same prompt without that delivery, it orders the image', async () => {
    const result = await model.complete(request([]));
    expect(result.toolCalls.map((c) => c.name)).toEqual(['image.generate']);
  });

  it('given a delivery for another request, it orders the new one', async () => {
    const result = await model.complete({
      ...request(delivered),
      messages: [...request(delivered).messages.slice(0, -1), person('make a poster of an owl')],
    });
    expect(result.toolCalls.map((c) => c.name)).toEqual(['image.generate']);
  });
});
