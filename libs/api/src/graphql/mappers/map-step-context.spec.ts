import { createFilesystemBlobStoreHarness } from '@lomo/blobs/testing';
import { PromptArchive, type Prompt } from '@lomo/runtime';
import { mapPrompt } from './map-step-context';

// The prompt archive as `TurnStep.prompt` reads it: the layers of a stored prompt, a prompt
// archived before layers were kept, and one whose blob was deleted.
describe('mapPrompt over the prompt archive', () => {
  let harness: Awaited<ReturnType<typeof createFilesystemBlobStoreHarness>>;
  let archive: PromptArchive;

  const tools = [{ name: 'notes.create', description: 'Create a note', parameters: { type: 'object' } }];
  const prompt: Prompt = {
    messages: [
      { role: 'system', content: 'rules' },
      { role: 'system', content: 'Turn started (message).' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'notes.create', arguments: '{"title":"a"}' }] },
      { role: 'tool', toolCallId: 'c1', content: '{"ok":true}' },
      { role: 'system', content: 'Task goal: a poem' },
      { role: 'user', content: 'Write a poem' },
    ],
    tools,
    layers: [
      { layer: 'prefix', start: 0, end: 1, tokens: 40 },
      { layer: 'history', start: 1, end: 1, tokens: 0 },
      { layer: 'recent', start: 1, end: 4, tokens: 30 },
      { layer: 'tail', start: 4, end: 5, tokens: 8 },
      { layer: 'input', start: 5, end: 6, tokens: 5 },
    ],
  };

  beforeEach(async () => {
    harness = await createFilesystemBlobStoreHarness();
    archive = new PromptArchive(harness.store);
  });

  afterEach(() => harness.dispose());

  it('shows each layer with its messages, calls and tool answers, and the definitions sent', async () => {
    const shown = mapPrompt(await archive.load(await archive.store(prompt)));
    expect(shown.unavailable).toBeNull();
    expect(shown.allowedTools).toBeNull();
    expect(shown.layers?.map((l) => [l.layer, l.tokens, l.messages.length])).toEqual([
      ['prefix', 40, 1],
      ['history', 0, 0],
      ['recent', 30, 3],
      ['tail', 8, 1],
      ['input', 5, 1],
    ]);
    expect(shown.layers?.[2].messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'notes.create', arguments: '{"title":"a"}' }],
        toolCallId: null,
      },
      { role: 'tool', content: '{"ok":true}', toolCalls: [], toolCallId: 'c1' },
    ]);
    expect(shown.tools?.map((t) => [t.name, JSON.parse(t.definitionJson)])).toEqual([['notes.create', tools[0]]]);
  });

  it('lists the allowed tools of a masked prompt', async () => {
    const masked = { ...prompt, allowedTools: ['notes.create'] };
    expect(mapPrompt(await archive.load(await archive.store(masked))).allowedTools).toEqual(['notes.create']);
  });

  it('shows a prompt archived before layers were kept (lomo.prompt/1) as one UNKNOWN layer of all its messages', async () => {
    const prefixRef = await harness.store.put(
      JSON.stringify({ first: prompt.messages[0], tools }),
      'application/vnd.lomo.prompt-prefix+json',
    );
    const legacy = await harness.store.put(
      JSON.stringify({ format: 'lomo.prompt/1', prefixRef, messages: prompt.messages.slice(1) }),
      'application/vnd.lomo.prompt+json',
    );
    const shown = mapPrompt(await archive.load(legacy));
    expect(shown.layers).toHaveLength(1);
    expect(shown.layers?.[0]).toMatchObject({ layer: 'unknown', tokens: null });
    expect(shown.layers?.[0].messages.map((m) => m.content)).toEqual(prompt.messages.map((m) => m.content));
  });

  it('shows a deleted prompt as null layers and tools with the reason, never an error', async () => {
    const ref = await archive.store(prompt);
    await harness.store.delete(ref.hash);
    expect(mapPrompt(await archive.load(ref))).toEqual({
      layers: null,
      tools: null,
      allowedTools: null,
      unavailable: 'purged',
    });
  });
});
