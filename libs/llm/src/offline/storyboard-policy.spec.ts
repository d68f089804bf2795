import type { ChatMessage, CompletionResult, ToolSpec } from '../model-provider.port';
import { OfflineModelProvider } from './offline-model-provider';
import { shotsOf } from './tool-arguments';

const spec = (name: string, description: string): ToolSpec => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
});
// The workspace tools as the registry names them, beside the starter tools they compete with.
const TOOLS: ToolSpec[] = [
  spec('notes.create', 'Create a note in the workspace'),
  spec('notes.delete', 'Delete a note for good'),
  spec('document.read', 'Read a document of the workspace'),
  spec('document.write', 'Write a whole document; without artifactId it creates a new document'),
  spec('document.edit', 'Edit parts of a document'),
  spec('flow.create', 'Create a new flow in the workspace'),
  spec('artifact.delete', 'Delete an artefact of the workspace for good'),
  spec('asset.search', "Search the workspace's artefacts by words"),
];
const DOC = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const model = new OfflineModelProvider();
const complete = (messages: ChatMessage[], tools = TOOLS) => model.complete({ messages, tools });
const onlyCall = (result: CompletionResult) => {
  expect(result.toolCalls).toHaveLength(1);
  const [call] = result.toolCalls;
  return { name: call.name, args: JSON.parse(call.arguments) as Record<string, unknown>, id: call.id };
};
const assistantCall = (id: string, name: string, args: unknown): ChatMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});
const toolOk = (id: string, result: unknown): ChatMessage => ({
  role: 'tool',
  toolCallId: id,
  content: JSON.stringify({ ok: true, result }),
});
const toolError = (id: string, code: string, message: string): ChatMessage => ({
  role: 'tool',
  toolCallId: id,
  content: JSON.stringify({ ok: false, error: { code, message, retriable: false } }),
});

describe('the offline model uses the document and flow tools for a storyboard request', () => {
  const request: ChatMessage[] = [
    { role: 'system', content: 'rules' },
    { role: 'user', content: 'make a storyboard for a lighthouse keeper at dawn' },
  ];

  it('writes a new storyboard document, its shots as markdown sections, and then reports it', async () => {
    const first = onlyCall(await complete(request));
    expect(first.name).toBe('document.write');
    expect(first.args).not.toHaveProperty('artifactId');
    expect(first.args.title).toBe('Storyboard: a lighthouse keeper at dawn');
    const shots = shotsOf(String(first.args.text));
    expect(shots.length).toBeGreaterThanOrEqual(3);
    expect(shots[0].description).toContain('a lighthouse keeper at dawn');

    const done = await complete([
      ...request,
      assistantCall(first.id, first.name, first.args),
      toolOk(first.id, { artifact: { artifactId: DOC, version: 1 }, created: true }),
    ]);
    expect({ calls: done.toolCalls, finish: done.finishReason }).toEqual({ calls: [], finish: 'stop' });
    expect(done.text).toContain('document.write');
  });

  it('answers 「分镜」 in Chinese with a Chinese storyboard document', async () => {
    const call = onlyCall(await complete([{ role: 'user', content: '帮我做一个关于灯塔的分镜' }]));
    expect(call.name).toBe('document.write');
    expect(String(call.args.title)).toMatch(/^分镜：/);
    expect(String(call.args.text)).toContain('## 镜头 1');
  });

  it('offers a flow when asked: after the document, one node per shot with edges in order', async () => {
    const asked: ChatMessage[] = [{ role: 'user', content: 'make a storyboard for a rainy market, and a flow of it' }];
    const write = onlyCall(await complete(asked));
    const flow = onlyCall(
      await complete([
        ...asked,
        assistantCall(write.id, write.name, write.args),
        toolOk(write.id, { artifact: { artifactId: DOC, version: 1 }, created: true }),
      ]),
    );
    expect(flow.name).toBe('flow.create');
    const nodes = flow.args.nodes as Array<{ nodeId: string; kind: string }>;
    expect(nodes.map((n) => n.nodeId)).toEqual(shotsOf(String(write.args.text)).map((_, i) => `shot_${i + 1}`));
    expect(flow.args.edges).toEqual(
      nodes.slice(1).map((n, i) => ({ edgeId: `e${i + 1}`, from: nodes[i].nodeId, to: n.nodeId })),
    );
  });

  it('reads back the storyboard it made when a later message asks about it', async () => {
    const later: ChatMessage[] = [
      ...request,
      assistantCall('c1', 'document.write', { title: 'Storyboard', text: '# x' }),
      toolOk('c1', { artifact: { artifactId: DOC, version: 1 }, created: true }),
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'show me the storyboard again' },
    ];
    expect(onlyCall(await complete(later))).toMatchObject({ name: 'document.read', args: { artifactId: DOC } });
  });

  it('after ARTIFACT_VERSION_CONFLICT it re-reads the document and resubmits its text on the version read', async () => {
    const refusedArgs = { artifactId: DOC, baseVersion: 3, text: '# mine' };
    const conflict: ChatMessage[] = [
      { role: 'user', content: 'tighten the storyboard' },
      assistantCall('c1', 'document.write', refusedArgs),
      toolError('c1', 'ARTIFACT_VERSION_CONFLICT', 'The document is at version 4, not 3; current version: 4'),
    ];
    const reread = onlyCall(await complete(conflict));
    expect(reread).toMatchObject({ name: 'document.read', args: { artifactId: DOC } });

    const resubmit = onlyCall(
      await complete([
        ...conflict,
        assistantCall(reread.id, reread.name, reread.args),
        toolOk(reread.id, { artifact: { artifactId: DOC, version: 4 }, title: 'Storyboard', text: '# theirs' }),
      ]),
    );
    expect(resubmit).toMatchObject({
      name: 'document.write',
      args: { artifactId: DOC, baseVersion: 4, text: '# mine' },
    });
  });

  it('re-reads an artefact it knows when the step’s context shows a change notice for it, once', async () => {
    const known: ChatMessage[] = [
      ...request,
      assistantCall('c1', 'document.write', { title: 'Storyboard', text: '# x' }),
      toolOk('c1', { artifact: { artifactId: DOC, version: 1 }, created: true }),
      { role: 'assistant', content: 'Done.' },
      {
        role: 'system',
        content: `ArtifactChangeNoticed: artefact ${DOC} changed from version 1 to 2 (snippets edited)`,
      },
      { role: 'user', content: 'thanks' },
    ];
    const read = onlyCall(await complete(known));
    expect(read).toMatchObject({ name: 'document.read', args: { artifactId: DOC } });
    const after = await complete([
      ...known,
      assistantCall(read.id, read.name, read.args),
      toolOk(read.id, { artifact: { artifactId: DOC, version: 2 }, title: 'Storyboard', text: '# edited' }),
    ]);
    expect(after.toolCalls).toEqual([]);
    // A notice about an artefact it never touched is not its business.
    const stranger = await complete([
      { role: 'system', content: 'ArtifactChangeNoticed: artefact bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb changed' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(stranger.toolCalls).toEqual([]);
  });

  it('without the workspace tools a storyboard request says so instead of calling another tool', async () => {
    const result = await complete(
      request,
      TOOLS.filter((t) => t.name.startsWith('notes.')),
    );
    expect(result.toolCalls).toEqual([]);
    expect(result.text).toContain('document');
  });

  it('deletes an artefact named by words by searching for it first, then deleting the most recently changed match', async () => {
    const asked: ChatMessage[] = [{ role: 'user', content: 'delete the storyboard' }];
    const search = onlyCall(await complete(asked));
    expect(search).toMatchObject({ name: 'asset.search', args: { text: 'storyboard' } });
    const older = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
    const found = (artifacts: unknown[]) => [
      ...asked,
      assistantCall(search.id, search.name, search.args),
      toolOk(search.id, { artifacts, hasNextPage: false, endCursor: null }),
    ];
    const del = onlyCall(await complete(found([{ artifactId: DOC }, { artifactId: older }])));
    expect(del).toMatchObject({ name: 'artifact.delete', args: { artifactId: DOC } });
    const byTime = onlyCall(
      await complete(
        found([
          { artifactId: older, updatedAt: '2026-01-01T00:00:00.000Z' },
          { artifactId: DOC, updatedAt: '2026-01-02T00:00:00.000Z' },
        ]),
      ),
    );
    expect(byTime).toMatchObject({ name: 'artifact.delete', args: { artifactId: DOC } });
    // Nothing found: it says so rather than deleting anything.
    expect((await complete(found([]))).toolCalls).toEqual([]);
  });

  it('deletes by words with the artefact tools alone (on-demand domains offer them without the document ones)', async () => {
    const tools = TOOLS.filter((t) => !t.name.startsWith('document.') && t.name !== 'flow.create');
    const asked: ChatMessage[] = [{ role: 'user', content: 'delete the storyboard' }];
    const search = onlyCall(await complete(asked, tools));
    expect(search).toMatchObject({ name: 'asset.search', args: { text: 'storyboard' } });
    const found = [
      ...asked,
      assistantCall(search.id, search.name, search.args),
      toolOk(search.id, { artifacts: [{ artifactId: DOC }], hasNextPage: false, endCursor: null }),
    ];
    expect(onlyCall(await complete(found, tools))).toMatchObject({
      name: 'artifact.delete',
      args: { artifactId: DOC },
    });
  });

  it('picks notes.delete for “delete the note …” even beside artifact.delete', async () => {
    const call = onlyCall(await complete([{ role: 'user', content: 'delete the note 42' }]));
    expect(call.name).toBe('notes.delete');
  });
});
