import fc from 'fast-check';
import type { ChatMessage, CompletionRequest, ToolSpec } from '../model-provider.port';
import { describeModelProviderContract } from '../testing/model-provider.contract';
import { OfflineModelProvider } from './offline-model-provider';

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
    name: 'delete_note',
    description: 'Delete a note (irreversible)',
    parameters: object({ noteId: { type: 'string' } }, ['noteId']),
  },
  {
    name: 'list_task_history',
    description: 'What happened in this task so far',
    parameters: object({ limit: { type: 'integer' } }),
  },
  {
    name: 'export_notes',
    description: 'Export all notes as a file (takes a while)',
    parameters: object({ format: { type: 'string', enum: ['markdown', 'json'] } }, ['format']),
  },
];

const model = new OfflineModelProvider();
const ask = (text: string, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  messages: [
    { role: 'system', content: 'You are Lomo.' },
    { role: 'user', content: text },
  ],
  tools: TOOLS,
  ...extra,
});

/** The request of the following step: the policy's own tool call and the tool's result appended. */
async function withResult(request: CompletionRequest, result: string): Promise<CompletionRequest> {
  const step = await model.complete(request);
  const [call] = step.toolCalls;
  const messages: ChatMessage[] = [
    ...request.messages,
    { role: 'assistant', content: step.text, toolCalls: step.toolCalls },
    { role: 'tool', toolCallId: call.id, content: result },
  ];
  return { ...request, messages };
}

describe('OfflineModelProvider (demo policy)', () => {
  it('takes a note with one tool call, then reports the result and stops', async () => {
    const request = ask('Remember that the client prefers blue');
    const first = await model.complete(request);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toEqual([
      { id: 'offline_2_0', name: 'take_note', arguments: JSON.stringify({ text: 'the client prefers blue' }) },
    ]);

    const second = await model.complete(await withResult(request, '{"noteId":"n-7","summary":"note n-7 saved"}'));
    expect(second).toMatchObject({ text: 'Done (take_note): note n-7 saved', toolCalls: [], finishReason: 'stop' });
  });

  it("answers in the user's language after the tool ran", async () => {
    const cases: Array<[string, string]> = [
      ['记住：客户喜欢蓝色', '已完成（take_note）'],
      ['Note : le client préfère le bleu', "C'est fait (take_note)"],
      ['Bitte merk dir, dass der Kunde Blau mag', 'Erledigt (take_note)'],
      ['Por favor, recuerda que el cliente prefiere el azul', 'Hecho (take_note)'],
    ];
    for (const [text, expected] of cases) {
      const request = ask(text);
      expect((await model.complete(request)).toolCalls[0]?.name).toBe('take_note');
      expect((await model.complete(await withResult(request, '{"summary":"ok"}'))).text).toContain(expected);
    }
    expect(JSON.parse((await model.complete(ask('记住：客户喜欢蓝色'))).toolCalls[0].arguments)).toEqual({
      text: '客户喜欢蓝色',
    });
  });

  it.each([
    ['Hello!', 'Hello!'],
    ['你好', '你好！'],
    ['Bonjour, ça va ?', 'Bonjour !'],
    ['Hallo, wie geht es dir?', 'Hallo!'],
    ['¡Hola! ¿Qué tal?', '¡Hola!'],
    ['Ciao, come va?', 'Got it.'],
    ['The weather is nice', 'Got it.'],
  ])('greets or acknowledges %j without a tool', async (text, opening) => {
    const result = await model.complete(ask(text));
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe('stop');
    expect(result.text.startsWith(opening)).toBe(true);
  });

  it.each([
    ['What happened so far?', 'list_task_history', {}],
    ['Export my notes please', 'export_notes', { format: 'markdown' }],
    ['Delete note n-42', 'delete_note', { noteId: 'n-42' }],
    ['删除笔记 n-42', 'delete_note', { noteId: 'n-42' }],
  ])('plans %j as %s', async (text, tool, args) => {
    const [call] = (await model.complete(ask(text))).toolCalls;
    expect({ name: call.name, args: JSON.parse(call.arguments) }).toEqual({ name: tool, args });
  });

  it('finds the id to delete in an earlier tool result when the user gives none', async () => {
    const request: CompletionRequest = {
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'remember: buy milk' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'take_note', arguments: '{"text":"buy milk"}' }],
        },
        { role: 'tool', toolCallId: 'c1', content: '{"noteId":"note-9f","summary":"saved"}' },
        { role: 'assistant', content: 'Done' },
        { role: 'user', content: 'actually, delete that note' },
      ],
    };
    const [call] = (await model.complete(request)).toolCalls;
    expect(call).toMatchObject({ name: 'delete_note', arguments: '{"noteId":"note-9f"}' });
  });

  it('chooses tools by what the request offers, not by known names', async () => {
    const opaque: ToolSpec[] = [
      {
        name: 'tool_a',
        description: 'Removes one memo for good',
        parameters: object({ id: { type: 'string' } }, ['id']),
      },
      { name: 'tool_b', description: 'Stores a memo', parameters: object({ body: { type: 'string' } }, ['body']) },
    ];
    expect((await model.complete(ask('jot down: call Bob', { tools: opaque }))).toolCalls[0]).toMatchObject({
      name: 'tool_b',
      arguments: '{"body":"call Bob"}',
    });
    const none = await model.complete(ask('export everything', { tools: opaque }));
    expect(none).toMatchObject({
      toolCalls: [],
      finishReason: 'stop',
      text: 'I cannot do that here: no export tool is available.',
    });
  });

  it('honours toolChoice none and a named tool choice', async () => {
    expect((await model.complete(ask('remember milk', { toolChoice: 'none' }))).toolCalls).toEqual([]);
    const named = await model.complete(ask('hello', { toolChoice: { name: 'list_notes' } }));
    expect(named.toolCalls.map((c) => c.name)).toEqual(['list_notes']);
  });

  it('reports a failed tool as a failure', async () => {
    const request = await withResult(ask('delete note n-1'), '{"error":"note n-1 does not exist"}');
    expect((await model.complete(request)).text).toBe('That did not work (delete_note): note n-1 does not exist');
  });

  it('falls back to a language declared in a system message when the words give no sign', async () => {
    const request: CompletionRequest = {
      tools: [],
      messages: [
        { role: 'system', content: 'Task goal: plan a trip\nLanguage of the person: de' },
        { role: 'user', content: 'ok' },
      ],
    };
    expect((await model.complete(request)).text.startsWith('Verstanden.')).toBe(true);
  });

  it('drives tools shaped like the starter set (dotted names, zod-made schemas, wrapped results)', async () => {
    const uuid = { type: 'string', format: 'uuid', pattern: '^[0-9a-f-]{36}$' };
    const starter: ToolSpec[] = [
      {
        name: 'notes.create',
        description: 'Create a note in the workspace (visible to every task of this workspace).',
        parameters: {
          type: 'object',
          properties: { title: { type: 'string', minLength: 1 }, body: { default: '', type: 'string' } },
          required: ['title'],
          additionalProperties: false,
        },
      },
      { name: 'notes.list', description: 'List the notes of the workspace, newest first.', parameters: object({}) },
      {
        name: 'notes.delete',
        description: 'Delete a note for good.',
        parameters: object({ noteId: uuid }, ['noteId']),
      },
      {
        name: 'notes.append_line',
        description: 'Append one line of text to the end of a note.',
        parameters: object({ noteId: uuid, line: { type: 'string' } }, ['noteId', 'line']),
      },
      {
        name: 'task.history',
        description: 'List the most recent events of this task and of the current turn.',
        parameters: object({ limit: { type: 'integer', default: 20 } }),
      },
      {
        name: 'export.document',
        description: 'Export a document (markdown, plain text or HTML) as a file. Takes a while.',
        parameters: object(
          {
            title: { type: 'string' },
            format: { type: 'string', enum: ['markdown', 'text', 'html'], default: 'markdown' },
            content: { type: 'string' },
          },
          ['title', 'content'],
        ),
      },
    ];
    const plan = async (text: string) => (await model.complete(ask(text, { tools: starter }))).toolCalls[0];

    expect(await plan('Remember: the client prefers blue')).toMatchObject({
      name: 'notes.create',
      arguments: JSON.stringify({ title: 'the client prefers blue', body: 'the client prefers blue' }),
    });
    expect(await plan('What happened so far?')).toMatchObject({ name: 'task.history', arguments: '{}' });
    expect((await plan('Export this as a document')).name).toBe('export.document');
    const id = '0d6f7a52-93a4-4c1e-9b7e-2f1c8e0a1b2c';
    const request = await withResult(
      ask('Remember: call Bob', { tools: starter }),
      JSON.stringify({ ok: true, result: { noteId: id, title: 'call Bob', created: true } }),
    );
    expect((await model.complete(request)).text).toBe(
      `Done (notes.create): noteId: ${id}, title: call Bob, created: true`,
    );
    const later: CompletionRequest = {
      ...request,
      messages: [...request.messages, { role: 'user', content: 'delete that note' }],
    };
    expect((await model.complete(later)).toolCalls[0]).toMatchObject({
      name: 'notes.delete',
      arguments: JSON.stringify({ noteId: id }),
    });
  });

  it('estimates usage from character counts', async () => {
    const { usage } = await model.complete(ask('Hello!'));
    expect(usage.inputTokens).toBeGreaterThan(10);
    expect(usage.outputTokens).toBeGreaterThan(10);
    const chinese = await model.complete({ messages: [{ role: 'user', content: '你好你好你好你好' }], tools: [] });
    expect(chinese.usage.inputTokens).toBe(8);
  });

  it('is deterministic, calls at most one tool, and always stops once a tool result follows', async () => {
    const userText = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('remember x', 'export', 'delete n-1', 'history', '记住 x', 'bonjour', 'hola'),
    );
    const toolSubset = fc.subarray(TOOLS);
    await fc.assert(
      fc.asyncProperty(userText, toolSubset, async (text, tools) => {
        const request = ask(text, { tools });
        const first = await model.complete(request);
        expect(await model.complete(request)).toEqual(first);
        expect(first.toolCalls.length).toBeLessThanOrEqual(1);
        expect(first.finishReason).toBe(first.toolCalls.length ? 'tool_calls' : 'stop');
        if (first.toolCalls.length === 1) {
          expect(tools.map((t) => t.name)).toContain(first.toolCalls[0].name);
          const next = await model.complete(await withResult(request, '{"summary":"ok"}'));
          expect(next).toMatchObject({ toolCalls: [], finishReason: 'stop' });
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('OfflineModelProvider: media requests', () => {
  const uuid = { type: 'string', format: 'uuid' };
  const choice = (values: string[]) => ({ type: 'string', enum: values, default: values[0] });
  // Shaped like the media tools' zod-made schemas: a required prompt, everything else defaulted.
  const MEDIA: ToolSpec[] = [
    {
      name: 'image.generate',
      description: 'Make one image (picture, poster, illustration, photo) from a text prompt. Paid.',
      parameters: {
        ...object(
          {
            prompt: { type: 'string', minLength: 1 },
            size: choice(['1024x1024', '1024x1536']),
            quality: choice(['medium', 'low']),
          },
          ['prompt'],
        ),
        additionalProperties: false,
      },
    },
    {
      name: 'image.edit',
      description: 'Edit images of the workspace (1 to 4 reference artefacts) into one new image.',
      parameters: object({ prompt: { type: 'string' }, referenceArtifactIds: { type: 'array', items: uuid } }, [
        'prompt',
        'referenceArtifactIds',
      ]),
    },
    {
      name: 'video.generate',
      description: 'Make a short video clip from a text prompt, or animate an image artefact.',
      parameters: object(
        { prompt: { type: 'string' }, durationSeconds: { enum: [4, 8, 12], default: 4 }, referenceArtifactId: uuid },
        ['prompt'],
      ),
    },
    {
      name: 'generation.status',
      description: 'Look up a media job (image, video, 3D, audio) by its job id.',
      parameters: object({ jobId: uuid }),
    },
    ...TOOLS,
  ];
  const artifactId = '8b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a68';
  const pending = JSON.stringify({ status: 'pending', note: 'job j1 is requested: quote 0.40 USD' });
  const completion = JSON.stringify({ ok: true, result: { jobId: 'j1', artifactId, kind: 'image', bytes: 42 } });

  it('makes a poster with image.generate, the prompt from the message and nothing else', async () => {
    const [call] = (await model.complete(ask('Make a poster for the spring fair', { tools: MEDIA }))).toolCalls;
    expect(call).toMatchObject({ name: 'image.generate' });
    expect(JSON.parse(call.arguments)).toEqual({ prompt: 'a poster for the spring fair' });
  });

  it('leaves an optional reference empty even when the message holds a number', async () => {
    const [call] = (await model.complete(ask('Create a 10 second video of 2 dogs', { tools: MEDIA }))).toolCalls;
    expect(call).toMatchObject({ name: 'video.generate' });
    expect(JSON.parse(call.arguments)).toEqual({ prompt: 'a 10 second video of 2 dogs' });
  });

  it('says the image is being made when the result is pending, and stops', async () => {
    const request = await withResult(ask('Make a poster for the spring fair', { tools: MEDIA }), pending);
    expect(await model.complete(request)).toMatchObject({
      text: 'The image is being made; it will appear in the workspace when it is ready.',
      toolCalls: [],
      finishReason: 'stop',
    });
  });

  it('names the artefact once the completion arrives', async () => {
    const request = await withResult(ask('Make a poster for the spring fair', { tools: MEDIA }), completion);
    expect(await model.complete(request)).toMatchObject({
      text: `The image is ready: artefact ${artifactId} is in the workspace.`,
      finishReason: 'stop',
    });
  });

  it("answers in the person's language, in the script they wrote", async () => {
    const cases: Array<[string, string, string]> = [
      ['帮我画一张咖啡店的海报', '正在生成图片，完成后会出现在工作区。', `图片已生成，已放入工作区（${artifactId}）。`],
      ['幫我畫一張咖啡店的海報', '正在生成圖片', `（${artifactId}）`],
      ['Fais-moi une affiche pour le concert', 'Création en cours (image)', `l'artefact ${artifactId}`],
      ['Erstelle ein Bild von einem Leuchtturm', 'Wird erstellt (Bild)', `Artefakt ${artifactId}`],
      ['Crea una imagen de un zorro para el cartel', 'Generando (imagen)', `el artefacto ${artifactId}`],
    ];
    for (const [text, whilePending, whenReady] of cases) {
      const request = ask(text, { tools: MEDIA });
      expect((await model.complete(request)).toolCalls[0]?.name).toBe('image.generate');
      expect((await model.complete(await withResult(request, pending))).text).toContain(whilePending);
      expect((await model.complete(await withResult(request, completion))).text).toContain(whenReady);
    }
  });

  it('reports a failed media job as a failure, and has no tool to offer without one', async () => {
    const failed = JSON.stringify({
      ok: false,
      error: { code: 'GENERATION_FAILED', message: 'the upstream refused it' },
    });
    const request = await withResult(ask('Make a poster for the spring fair', { tools: MEDIA }), failed);
    expect((await model.complete(request)).text).toBe('That did not work (image.generate): the upstream refused it');
    expect((await model.complete(ask('Make a poster for the spring fair'))).text).toBe(
      'I cannot do that here: no media generation tool is available.',
    );
  });

  it('keeps a storyboard request a storyboard, and a pending export its own summary', async () => {
    expect((await model.complete(ask('make a storyboard for a poster', { tools: MEDIA }))).text).toBe(
      'I cannot do that here: no document tool is available.',
    );
    const exported = await withResult(ask('Export my notes please', { tools: MEDIA }), pending);
    expect((await model.complete(exported)).text).toBe(
      'Done (export_notes): status: pending, note: job j1 is requested: quote 0.40 USD',
    );
  });
});

describeModelProviderContract('offline', async () => ({ provider: new OfflineModelProvider() }));
