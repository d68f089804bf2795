import type { ChatMessage, CompletionRequest } from '../model-provider.port';
import { asksDocumentChange } from './document-edit';
import { ReactiveModelProvider } from './reactive-model-provider';
import { marker, ok, person, RULES, step, taskState, TOOLS } from './reactive-prompts.fixtures';

// Rule 2 (README.md, "Change notices"): with a change notice for the document it reads it first
// and edits the version read; without one it edits the version its own earlier results showed.

const model = new ReactiveModelProvider();
const DOC = 'doc-1';
const TEXT = '# Storyboard: a fox\n\n## Shot 1\nThe forest at dawn.';
const NOTICE: ChatMessage = {
  role: 'system',
  content: `Workspace changes since you last looked (re-read an artefact before editing it):\n- artifact ${DOC} v1→v2 (by the person u-1)`,
};

/** An earlier turn wrote the storyboard (v1); this turn the person asks for a change. */
function changeRequest(tail: readonly ChatMessage[], thisTurn: readonly ChatMessage[] = []): CompletionRequest {
  return {
    messages: [
      RULES,
      marker('message'),
      person('write a storyboard for a fox'),
      ...step(
        'w1',
        'document.write',
        { title: 'Storyboard: a fox', text: TEXT },
        ok({ artifact: { artifactId: DOC, version: 1 } }),
      ),
      { role: 'assistant', content: 'Done.' },
      marker('message'),
      person('please change the storyboard: the fox should be red'),
      ...thisTurn,
      taskState('a storyboard for a fox'),
      ...tail,
    ],
    tools: TOOLS,
  };
}

const argsOf = (result: { toolCalls: { arguments: string }[] }) => JSON.parse(result.toolCalls[0].arguments);

describe('reactive rule 2: change notices', () => {
  it('given a change notice for the document, it reads it before editing', async () => {
    const result = await model.complete(changeRequest([NOTICE]));
    expect(result.toolCalls.map((c) => c.name)).toEqual(['document.read']);
    expect(argsOf(result)).toEqual({ artifactId: DOC });
  });

  it('then edits the version the read returned (the one the notice names)', async () => {
    const edited = `${TEXT}\n\n## Shot 2\nAdded by the person.`;
    const read = step(
      'r1',
      'document.read',
      { artifactId: DOC },
      ok({ artifact: { artifactId: DOC, version: 2 }, text: edited }),
    );
    const result = await model.complete(changeRequest([NOTICE], read));
    expect(result.toolCalls.map((c) => c.name)).toEqual(['document.edit']);
    expect(argsOf(result)).toMatchObject({ artifactId: DOC, baseVersion: 2 });
    expect(argsOf(result).edits[0].new).toContain('the fox should be red');
  });

  it('given the same prompt without the notice, it edits the version it last saw itself (stale if the person edited it)', async () => {
    const result = await model.complete(changeRequest([]));
    expect(result.toolCalls.map((c) => c.name)).toEqual(['document.edit']);
    expect(argsOf(result)).toMatchObject({ artifactId: DOC, baseVersion: 1 });
  });

  it('after a refused edit it reads the document again rather than repeating the same base', async () => {
    const refused = step(
      'e1',
      'document.edit',
      { artifactId: DOC, baseVersion: 1, edits: [] },
      { ok: false, error: { code: 'ARTIFACT_VERSION_CONFLICT', message: 'changed' } },
    );
    const result = await model.complete(changeRequest([], refused));
    expect(result.toolCalls.map((c) => c.name)).toEqual(['document.read']);
  });

  it('after its edit went through, it leaves the summary to the offline rules and ends the turn', async () => {
    const done = step(
      'e1',
      'document.edit',
      { artifactId: DOC, baseVersion: 1, edits: [] },
      ok({ artifact: { artifactId: DOC, version: 2 } }),
    );
    const result = await model.complete(changeRequest([], done));
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe('stop');
  });

  it('reads once after a notice: a read that could not be made is not repeated', async () => {
    const gone = step('r1', 'document.read', { artifactId: DOC }, { ok: false, error: { code: 'ARTIFACT_NOT_FOUND' } });
    const result = await model.complete(changeRequest([NOTICE], gone));
    expect(result.toolCalls).toEqual([]);
  });
});

describe('reactive rule 2: what counts as a change to a document', () => {
  it.each([
    ['please change the storyboard: the fox should be red', true],
    ['edit the title: Foxes at dawn', true],
    ['修改分镜：狐狸是红色的', true],
    ['change the text on the poster', false],
    ['add a poster of an owl', false],
  ])('"%s" asks for a document change: %s', (text, expected) => {
    expect(asksDocumentChange(text)).toBe(expected);
  });
});
