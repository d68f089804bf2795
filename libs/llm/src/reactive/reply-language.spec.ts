import type { ChatMessage, CompletionRequest } from '../model-provider.port';
import { PHRASES } from '../offline/phrases';
import { ReactiveModelProvider } from './reactive-model-provider';
import { marker, person, RULES, taskState, TOOLS } from './reactive-prompts.fixtures';

// Rule 4 (README.md, "Language"): the reply is in the language of the person's latest message the
// prompt shows, even in a turn the runtime started and against the task's stored language.

const model = new ReactiveModelProvider();

/** A turn the runtime started (no message of its own) after `earlier`; the task says English. */
const continuation = (earlier: readonly ChatMessage[]): CompletionRequest => ({
  messages: [RULES, ...earlier, marker('continuation'), taskState('a poster', [], 'en')],
  tools: TOOLS,
});

describe('reactive rule 4: language', () => {
  it('given the person last wrote in French, it replies in French although the task says English', async () => {
    const result = await model.complete(
      continuation([
        marker('message'),
        person('hello'),
        { role: 'assistant', content: 'Hi.' },
        marker('message'),
        person("Merci, c'est parfait pour moi"),
      ]),
    );
    expect(result.text).toBe(PHRASES.fr.acknowledged);
  });

  it('given the same prompt without that message, it replies in the task language', async () => {
    const result = await model.complete(continuation([marker('message'), person('hello')]));
    expect(result.text).toBe(PHRASES.en.acknowledged);
  });

  it("skips the runtime's own English stand-ins in the person's messages", async () => {
    const result = await model.complete(
      continuation([
        marker('message'),
        person("Merci, c'est parfait pour moi [changed later; see the constraints in force]"),
        marker('message'),
        person('(A message the person asked to forget.)'),
      ]),
    );
    expect(result.text).toBe(PHRASES.fr.acknowledged);
  });
});
