import type { ChatMessage, CompletionRequest } from '../model-provider.port';
import { ReactiveModelProvider } from './reactive-model-provider';
import { marker, ok, person, RULES, step, taskState, TOOLS } from './reactive-prompts.fixtures';

// Rule 1 (README.md, "Checklist progress"): the next stage the checklist shows is worked in this
// turn; without the checklist (or with a stage waiting for review) the turn ends.

const model = new ReactiveModelProvider();
const GOAL = 'a series of three posters for the autumn fair';

/** The brief's turn after the first stage was marked done, with `checklist` lines in the tail. */
function afterConcept(checklist: readonly string[]): CompletionRequest {
  const messages: ChatMessage[] = [
    RULES,
    marker('message'),
    person(`I want ${GOAL}`),
    ...step('c1', 'checklist.update', { itemId: 'concept', status: 'done' }, ok({ itemId: 'concept' })),
    taskState(GOAL, checklist),
  ];
  return { messages, tools: TOOLS };
}

describe('reactive rule 1: checklist progress', () => {
  it('given a checklist whose next stage may run, it works that stage instead of ending the turn', async () => {
    const request = afterConcept([
      '- [done] concept: Concept {output: artifact}',
      '- [pending] layouts: Layouts {output: artifact}',
      '- [pending] posters: Posters {output: media image x3}',
    ]);
    const result = await model.complete(request);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.toolCalls.map((c) => c.name)).toEqual(['document.write']);
    expect(JSON.parse(result.toolCalls[0].arguments).title).toMatch(/Layouts/);
  });

  it('given the same prompt without the checklist, it ends the turn with a summary', async () => {
    const result = await model.complete(afterConcept([]));
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe('stop');
  });

  it('given a done stage that waits for the review, it stops and says so instead of going on', async () => {
    const result = await model.complete(
      afterConcept([
        '- [done] concept: Concept {output: artifact} {review: needed}',
        '- [pending] layouts: Layouts {output: artifact}',
      ]),
    );
    expect(result.toolCalls).toEqual([]);
    expect(result.text).toMatch(/review/i);
  });

  it('given a checklist that still shows the stage just marked done, it does not redo it', async () => {
    const result = await model.complete(
      afterConcept(['- [in_progress] concept: Concept {output: artifact}', '- [pending] layouts: Layouts']),
    );
    expect(result.toolCalls).toEqual([]);
  });

  it('given a bare "ok" from the person and a workable stage, it works the stage; given no checklist, it only acknowledges', async () => {
    const prompt = (checklist: readonly string[]): CompletionRequest => ({
      messages: [RULES, marker('message'), taskState(GOAL, checklist), person('ok')],
      tools: TOOLS,
    });
    const working = await model.complete(
      prompt(['- [done] concept: Concept {output: artifact}', '- [pending] layouts: Layouts {output: artifact}']),
    );
    expect(working.toolCalls.map((c) => c.name)).toEqual(['document.write']);
    const idle = await model.complete(prompt([]));
    expect(idle.toolCalls).toEqual([]);
  });
});
