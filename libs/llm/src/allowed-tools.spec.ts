import type { CompletionRequest, ToolSpec } from './model-provider.port';
import { OfflineModelProvider } from './offline/offline-model-provider';
import { ScriptedModelProvider } from './scripted/scripted-model-provider';

// The masked tool strategy on the providers that have no vendor behind them: every definition is
// offered, `allowedTools` says which may be called this step.
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
const TOOLS: ToolSpec[] = [
  {
    name: 'take_note',
    description: 'Write a note into the workspace',
    parameters: object({ text: { type: 'string' } }, ['text']),
  },
  { name: 'list_notes', description: 'List the notes of the workspace', parameters: object({}) },
  {
    name: 'export_notes',
    description: 'Export all notes as a file (takes a while)',
    parameters: object({ format: { type: 'string', enum: ['markdown', 'json'] } }, ['format']),
  },
];
const ask = (text: string, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  messages: [
    { role: 'system', content: 'You are Lomo.' },
    { role: 'user', content: text },
  ],
  tools: TOOLS,
  ...extra,
});

describe('allowedTools and cacheKey without a vendor', () => {
  const offline = new OfflineModelProvider();

  it('offline: picks only among the allowed tools, as if the others were not offered', async () => {
    const open = await offline.complete(ask('Remember that the client prefers blue'));
    expect(open.toolCalls.map((c) => c.name)).toEqual(['take_note']);

    const masked = await offline.complete(
      ask('Remember that the client prefers blue', { allowedTools: ['list_notes', 'export_notes'] }),
    );
    const hidden = await offline.complete(
      ask('Remember that the client prefers blue', { tools: TOOLS.filter((t) => t.name !== 'take_note') }),
    );
    expect(masked.toolCalls).toEqual(hidden.toolCalls);
    expect(masked.toolCalls.map((c) => c.name)).not.toContain('take_note');

    const nothing = await offline.complete(ask('export everything', { allowedTools: [] }));
    expect(nothing.toolCalls).toEqual([]);
  });

  it('offline: still counts every definition sent in its usage, and ignores the cache key', async () => {
    const all = await offline.complete(ask('hello'));
    const masked = await offline.complete(ask('hello', { allowedTools: ['list_notes'], cacheKey: 'task-1' }));
    expect(masked.usage).toEqual(all.usage);
    expect(masked.text).toBe(all.text);
  });

  it('scripted: ignores both fields and records them for the test to read', async () => {
    const scripted = new ScriptedModelProvider([{ reply: { text: 'ok' } }]);
    await expect(
      scripted.complete(ask('hi', { allowedTools: ['list_notes'], cacheKey: 'task-1' })),
    ).resolves.toMatchObject({ text: 'ok' });
    expect(scripted.calls[0].request).toMatchObject({ allowedTools: ['list_notes'], cacheKey: 'task-1' });
    // An unscripted request names what was allowed, so a masked step's fixture is easy to find.
    await expect(scripted.complete(ask('again', { allowedTools: ['list_notes'] }))).rejects.toThrow(
      /allowed \[list_notes\]/,
    );
  });
});
