import type { ChatMessage, CompletionResult, ToolSpec } from '../model-provider.port';
import { OfflineModelProvider } from './offline-model-provider';
import { domainReach, withoutLoads } from './tool-domains';

const spec = (name: string, description: string): ToolSpec => ({
  name,
  description,
  parameters: { type: 'object', properties: {} },
});
const media = (name: string, description: string): ToolSpec => ({
  name,
  description,
  parameters: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
});
// The tools by domain, as the registry names them; core is always offered.
const CORE = [
  spec('notes.create', 'Create a note in the workspace'),
  spec('notes.delete', 'Delete a note for good'),
  spec('task.history', 'List the most recent events of this task'),
  spec('generation.status', 'The status of a generation job'),
  spec('brief.update', 'Record the approved direction'),
  spec('checklist.plan', 'Plan the checklist of the task'),
  spec('checklist.update', 'Update an item of the checklist'),
  spec(
    'tools.load',
    'Make the tools of one or more domains callable from your next step on: image, video, audio, 3d (media generation), document (write, read and edit documents), asset (find, reference or delete artefacts), flow (workflows).',
  ),
];
const DOMAIN_TOOLS: Record<string, ToolSpec[]> = {
  image: [media('image.generate', 'Make one image (picture, poster, illustration, photo) from a text prompt')],
  video: [media('video.generate', 'Make a short video clip from a text prompt')],
  audio: [media('audio.generate', 'Make audio (speech, music) from a text prompt')],
  '3d': [media('model3d.generate', 'Make a 3D model (glb) from a text prompt')],
  document: [
    spec('document.read', 'Read a document of the workspace'),
    spec('document.write', 'Write a whole document; without artifactId it creates a new document'),
    spec('export.document', 'Export a document as a file'),
  ],
  asset: [
    spec('asset.search', "Search the workspace's artefacts by words"),
    spec('artifact.delete', 'Delete an artefact of the workspace for good'),
  ],
  flow: [spec('flow.create', 'Create a new flow in the workspace')],
};
const ALL = ['image', 'video', 'audio', '3d', 'document', 'asset', 'flow'];

/** The tools a step offers, and the task state (its checklist lines, its domains line), for these callable domains. */
function step(callable: readonly string[], state = 'Task goal: x\nTask kind: lightweight') {
  const loadable = ALL.filter((d) => !callable.includes(d));
  return {
    tools: [...CORE, ...callable.flatMap((d) => DOMAIN_TOOLS[d])],
    tail: {
      role: 'system' as const,
      content: `${state}\nTool domains you can call now: ${['core', ...callable].join(', ')}${
        loadable.length > 0 ? ` (load others with tools.load: ${loadable.join(', ')})` : ''
      }`,
    },
  };
}

const model = new OfflineModelProvider();
const MARKER: ChatMessage = { role: 'system', content: 'Turn started (message).' };
const onlyCall = (result: CompletionResult) => {
  expect(result.toolCalls).toHaveLength(1);
  const [call] = result.toolCalls;
  return { name: call.name, args: JSON.parse(call.arguments) as Record<string, unknown>, id: call.id };
};

/** A turn's first step: the person's message with these domains callable. */
async function firstStep(text: string, callable: readonly string[] = []) {
  const { tools, tail } = step(callable);
  const messages: ChatMessage[] = [{ role: 'system', content: 'rules' }, MARKER, tail, { role: 'user', content: text }];
  return { messages, result: await model.complete({ messages, tools }) };
}

/** The step after a tools.load call: its result recorded, and these domains callable now. */
async function afterLoad(text: string, loadResult: string, callable: readonly string[]) {
  const first = await firstStep(text);
  const load = onlyCall(first.result);
  const { tools, tail } = step(callable);
  const messages: ChatMessage[] = [
    { role: 'system', content: 'rules' },
    MARKER,
    { role: 'user', content: text },
    { role: 'assistant', content: '', toolCalls: first.result.toolCalls },
    { role: 'tool', toolCallId: load.id, content: loadResult },
    tail,
  ];
  return { load, result: await model.complete({ messages, tools }) };
}

const LOADED = (domains: string[]) => JSON.stringify({ ok: true, result: { loaded: domains, changed: true } });

describe('the offline policy loads the tool domain its rule needs (tools.load)', () => {
  it.each([
    ['make a poster for the spring fair', ['image']],
    ['create a video clip of waves at night', ['video']],
    ['generate a 3d model of a teapot', ['3d']],
    ['compose music for the opening', ['audio']],
    ['make a storyboard for a lighthouse keeper at dawn', ['document']],
    ['make a storyboard for a lighthouse keeper, then a flow of its shots', ['document', 'flow']],
    ['delete the storyboard', ['asset']],
    ['export the storyboard as markdown', ['document']],
  ])('"%s" → tools.load %j', async (text, domains) => {
    const call = onlyCall((await firstStep(text)).result);
    expect(call).toMatchObject({ name: 'tools.load', args: { domains } });
  });

  it('loads nothing for what core tools do: notes, a note delete, the history', async () => {
    for (const [text, tool] of [
      ['remember that the client prefers blue', 'notes.create'],
      ['delete the note 42', 'notes.delete'],
      ['what happened so far', 'task.history'],
    ]) {
      expect(onlyCall((await firstStep(text)).result).name).toBe(tool);
    }
  });

  it('loads nothing when the tool is offered: the domain is callable already', async () => {
    expect(onlyCall((await firstStep('make a poster for the spring fair', ['image'])).result).name).toBe(
      'image.generate',
    );
    expect(onlyCall((await firstStep('make a storyboard for a fox', ['document'])).result).name).toBe('document.write');
    expect(onlyCall((await firstStep('delete the storyboard', ['asset'])).result).name).toBe('asset.search');
  });

  it('loads under the masked strategy too: every definition sent, only the visible ones allowed', async () => {
    const { tools, tail } = step([]);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'rules' },
      MARKER,
      tail,
      { role: 'user', content: 'make a poster' },
    ];
    const all = [...tools, ...ALL.flatMap((d) => DOMAIN_TOOLS[d])];
    const masked = await model.complete({ messages, tools: all, allowedTools: tools.map((t) => t.name) });
    expect(onlyCall(masked)).toMatchObject({ name: 'tools.load', args: { domains: ['image'] } });
  });

  it('loads only what is missing: a flow for a storyboard whose documents are callable', async () => {
    const call = onlyCall(
      (await firstStep('make a storyboard for a fox and a flow of its nodes', ['document'])).result,
    );
    expect(call).toMatchObject({ name: 'tools.load', args: { domains: ['flow'] } });
  });

  it('loads nothing without a domains line or without tools.load: the rules answer as before', async () => {
    const { result } = await firstStep('make a poster for the spring fair');
    expect(onlyCall(result).name).toBe('tools.load');
    const messages: ChatMessage[] = [
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'make a poster' },
    ];
    const noLine = await model.complete({ messages, tools: CORE });
    expect(noLine).toMatchObject({
      toolCalls: [],
      text: 'I cannot do that here: no media generation tool is available.',
    });
    const { tail } = step([]);
    const noLoader = await model.complete({
      messages: [...messages.slice(0, 1), tail, messages[1]],
      tools: CORE.filter((t) => t.name !== 'tools.load'),
    });
    expect(noLoader.toolCalls).toEqual([]);
  });

  it('works as before on the next step, as if the domain had been there (a new call id)', async () => {
    const poster = await afterLoad('make a poster for the spring fair', LOADED(['image']), ['image']);
    const made = onlyCall(poster.result);
    expect(made).toMatchObject({ name: 'image.generate', args: { prompt: 'a poster for the spring fair' } });
    expect(made.id).not.toBe(poster.load.id);
    const storyboard = await afterLoad('make a storyboard for a fox', LOADED(['document']), ['document']);
    expect(onlyCall(storyboard.result)).toMatchObject({ name: 'document.write', args: { title: 'Storyboard: a fox' } });
    const deleting = await afterLoad('delete the storyboard', LOADED(['asset']), ['asset']);
    expect(onlyCall(deleting.result)).toMatchObject({ name: 'asset.search', args: { text: 'storyboard' } });
  });

  it('never loads twice in a turn: a domain still not callable after its load is said', async () => {
    const refused = JSON.stringify({ ok: false, error: { code: 'X', message: 'no', retriable: false } });
    for (const result of [LOADED(['image']), refused]) {
      const { result: next } = await afterLoad('make a poster for the spring fair', result, []);
      expect(next.toolCalls).toEqual([]);
      expect(next.text).toBe('I cannot do that here: I loaded the image tools, but they are still not available.');
    }
    const { result: zh } = await afterLoad('做一张春季市集的海报', LOADED(['image']), []);
    expect(zh).toMatchObject({ toolCalls: [], text: expect.stringContaining('image') });
  });
});

describe('the plan rules with on-demand domains: the stage brings its domain, a load covers the rest', () => {
  const planned = (lines: string) => `Task goal: a video ad about a lighthouse\nTask kind: task\nChecklist:\n${lines}`;
  /** A turn the runtime started (no user message) on this checklist. */
  const continuation = async (lines: string, callable: readonly string[]) => {
    const { tools, tail } = step(callable, planned(lines));
    const messages: ChatMessage[] = [{ role: 'system', content: 'rules' }, MARKER, tail];
    return model.complete({ messages, tools });
  };

  it('records the brief with the documents still to come: no load before the plan', async () => {
    const { tools, tail } = step([], 'Task goal: make a 30 second video ad about a lighthouse\nTask kind: task');
    const messages: ChatMessage[] = [
      { role: 'system', content: 'rules' },
      MARKER,
      tail,
      { role: 'user', content: 'make a 30 second video ad about a lighthouse' },
    ];
    expect(onlyCall(await model.complete({ messages, tools })).name).toBe('brief.update');
  });

  it('works a stage whose domain is callable, and loads the domain of one that declares none', async () => {
    expect(onlyCall(await continuation('- [pending] script: Script {output: artifact}', ['document'])).name).toBe(
      'document.write',
    );
    expect(onlyCall(await continuation('- [pending] script: Script', []))).toMatchObject({
      name: 'tools.load',
      args: { domains: ['document'] },
    });
    const shots = '- [done] script: Script\n- [pending] shots: Shots {output: media video x3}';
    expect(onlyCall(await continuation(shots, ['video'])).name).toBe('video.generate');
    expect(onlyCall(await continuation(shots, []))).toMatchObject({ name: 'tools.load', args: { domains: ['video'] } });
  });
});

describe('reading the turn for the loading rule', () => {
  it('reads the loadable domains from the task state and the domains loaded this turn', () => {
    const { tools, tail } = step(['document']);
    const messages: ChatMessage[] = [
      tail,
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'tools.load', arguments: '{"domains":["flow"]}' }],
      },
    ];
    expect(domainReach(messages, tools)).toEqual({
      loadable: ['image', 'video', 'audio', '3d', 'asset', 'flow'],
      loadedThisTurn: ['flow'],
      canLoad: true,
    });
    expect(domainReach([{ role: 'system', content: 'rules' }], [])).toEqual({
      loadable: [],
      loadedThisTurn: [],
      canLoad: false,
    });
  });

  it('drops the load calls and their results, keeping everything else', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'tools.load', arguments: '{}' },
          { id: 'c2', name: 'notes.create', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', content: 'loaded' },
      { role: 'tool', toolCallId: 'c2', content: 'noted' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c3', name: 'tools.load', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c3', content: 'loaded' },
    ];
    expect(withoutLoads(messages)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'notes.create', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c2', content: 'noted' },
    ]);
  });
});
