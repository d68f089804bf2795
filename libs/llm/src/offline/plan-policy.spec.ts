import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage, CompletionRequest, CompletionResult, ToolSpec } from '../model-provider.port';
import { OfflineModelProvider } from './offline-model-provider';
import { PHRASES } from './phrases';
import { PLANS } from './plan-templates';
import { planKindOf, subjectOf, type PlanKind } from './plan-kinds';
import { parseTaskContext } from './plan-context';
import { nextWorkable } from './plan-items';

// The plan rules (README.md, "Plans") against a small stand-in of the runtime: it renders the
// task's system message as the context builder does (`Task goal:` … `Checklist:` lines), runs the
// policy's calls on a fake task, and feeds the results back until the policy ends its turn.

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const itemId = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' };
const outputSchema = {
  anyOf: [
    object({ kind: { type: 'string', const: 'artifact' } }, ['kind']),
    object(
      {
        kind: { type: 'string', const: 'media' },
        media: { type: 'string', enum: ['image', 'video', '3d', 'audio'] },
        count: { type: 'integer', minimum: 1 },
      },
      ['kind', 'media', 'count'],
    ),
    object({ kind: { type: 'string', const: 'decision' } }, ['kind']),
  ],
};
const planItem = (confirmation: boolean, output: boolean) =>
  object(
    {
      itemId,
      title: { type: 'string' },
      dependsOn: { type: 'array', items: itemId, default: [] },
      ...(confirmation ? { needsConfirmation: { type: 'boolean' } } : {}),
      ...(output ? { output: outputSchema } : {}),
    },
    ['itemId', 'title'],
  );

/** The tool set: checklist.plan with or without `needsConfirmation` and `output`, document.edit or not. */
function toolsWith(confirmation: boolean, output = false, edit = false): ToolSpec[] {
  return [
    {
      name: 'brief.update',
      description: 'Record the approved direction',
      parameters: object({ brief: { type: 'string' } }, ['brief']),
    },
    {
      name: 'checklist.plan',
      description: 'Plan the execution checklist',
      parameters: object({ items: { type: 'array', items: planItem(confirmation, output) } }, ['items']),
    },
    {
      name: 'checklist.update',
      description: 'Change one checklist item',
      parameters: object({ itemId, status: { type: 'string', enum: ['pending', 'in_progress', 'done'] } }, [
        'itemId',
        'status',
      ]),
    },
    {
      name: 'document.write',
      description: 'Write a whole document. Without artifactId it creates a new document in the workspace.',
      parameters: object({ artifactId: { type: 'string' }, title: { type: 'string' }, text: { type: 'string' } }, [
        'text',
      ]),
    },
    {
      name: 'document.read',
      description: 'Read a document of the workspace',
      parameters: object({ artifactId: { type: 'string' } }, ['artifactId']),
    },
    ...(edit
      ? [
          {
            name: 'document.edit',
            description: 'Edit parts of a document: each edit replaces an exact snippet `old` by `new`.',
            parameters: object(
              {
                artifactId: { type: 'string' },
                baseVersion: { type: 'integer' },
                edits: { type: 'array', items: object({ old: { type: 'string' }, new: { type: 'string' } }) },
              },
              ['artifactId', 'baseVersion', 'edits'],
            ),
          },
        ]
      : []),
    {
      name: 'image.generate',
      description: 'Make one image (picture, poster, illustration, photo) from a text prompt.',
      parameters: object(
        { prompt: { type: 'string' }, size: { type: 'string', enum: ['1024x1024'], default: '1024x1024' } },
        ['prompt'],
      ),
    },
    {
      name: 'video.generate',
      description: 'Make a short video clip from a text prompt, or animate an image artefact.',
      parameters: object(
        {
          prompt: { type: 'string' },
          durationSeconds: { type: 'number', default: 4 },
          referenceArtifactId: { type: 'string' },
        },
        ['prompt'],
      ),
    },
    {
      name: 'generation.status',
      description: 'Status of a generation job',
      parameters: object({ jobId: { type: 'string' } }),
    },
  ];
}
const TOOLS = toolsWith(true);
/** The tool set of today's runtime: items declare outputs, and documents can be edited in place. */
const CURRENT = toolsWith(true, true, true);

type Review = string | undefined;
type Output = { kind: 'artifact' } | { kind: 'decision' } | { kind: 'media'; media: string; count: number };
interface Item {
  itemId: string;
  title: string;
  status: string;
  needsConfirmation: boolean;
  review: Review;
  output?: Output;
  links: string[];
}
type Evidence = { kind: string; artifactId?: string; version?: number; jobId?: string; jobIds?: string[] };

/** The task as the runtime holds it, and what its tools do, in a few lines. */
class FakeTask {
  brief: string | null = null;
  checklist: Item[] = [];
  /** Documents by id: their versions' texts. */
  readonly documents = new Map<string, string[]>();
  /** Completed jobs: their kind and the artefact each made. */
  readonly jobs = new Map<string, { kind: string; artifactId: string }>();
  refuseUpdates = false;
  private counter = 0;
  constructor(
    readonly goal: string,
    readonly language = 'en',
    readonly kind = 'persistent',
    /** Whether the context renders the ` {review: …}` suffix (the runtime change in flight). */
    readonly reviewSuffix = true,
  ) {}

  describe(): string {
    const lines = [`Task goal: ${this.goal}`, `Language of the person: ${this.language}`, `Task kind: ${this.kind}`];
    if (this.brief !== null) lines.push(`Brief (version 1):\n${this.brief}`);
    if (this.checklist.length > 0) {
      lines.push('Checklist:');
      for (const i of this.checklist) {
        // As the context builder renders it: "needed" on a reviewed stage until a card exists.
        const state = i.review ?? (i.needsConfirmation ? 'needed' : undefined);
        const review = this.reviewSuffix && state !== undefined ? ` {review: ${state}}` : '';
        const output =
          i.output === undefined
            ? ''
            : i.output.kind === 'media'
              ? ` {output: media ${i.output.media} x${i.output.count}}`
              : ` {output: ${i.output.kind}}`;
        const links = i.links.length > 0 ? ` {artefacts: ${i.links.join(', ')}}` : '';
        lines.push(`- [${i.status}] ${i.itemId}: ${i.title}${output}${links}${review}`);
      }
    }
    return lines.join('\n');
  }

  /**
   * As the runtime judges evidence: it exists, and it is what the item declared it delivers (a
   * media item of count N needs N completed jobs of its kind). The artefacts it links, or why not.
   */
  private check(item: Item, evidence: Evidence | undefined): string[] | string {
    if (evidence === undefined) return [];
    const output = item.output;
    if (evidence.kind === 'artifact_version') {
      if (output !== undefined && output.kind !== 'artifact') return 'not an artefact item';
      const versions = this.documents.get(evidence.artifactId ?? '');
      const made = [...this.jobs.values()].some((j) => j.artifactId === evidence.artifactId);
      if (!made && (versions === undefined || versions.length < (evidence.version ?? 1))) return 'no such evidence';
      return [evidence.artifactId ?? ''];
    }
    const ids =
      evidence.kind === 'job' ? [evidence.jobId ?? ''] : evidence.kind === 'jobs' ? (evidence.jobIds ?? []) : [];
    if (ids.length === 0) return 'no such evidence';
    const jobs = ids.map((id) => this.jobs.get(id));
    if (jobs.some((j) => j === undefined)) return 'no such evidence';
    if (output !== undefined && output.kind !== 'media') return 'not a media item';
    if (output?.kind === 'media' && (ids.length < output.count || jobs.some((j) => j?.kind !== output.media)))
      return `Item ${item.itemId} delivers ${output.count} ${output.media} jobs: the evidence names ${ids.length}`;
    return jobs.map((j) => j?.artifactId ?? '');
  }

  run(name: string, args: Record<string, unknown>): string {
    const ok = (result: unknown) => JSON.stringify({ ok: true, result });
    const refused = (code: string, message: string) => JSON.stringify({ ok: false, error: { code, message } });
    switch (name) {
      case 'brief.update':
        this.brief = String(args.brief);
        return ok({ changed: true });
      case 'checklist.plan': {
        const items = args.items as Array<{
          itemId: string;
          title: string;
          needsConfirmation?: boolean;
          output?: Output;
        }>;
        this.checklist = items.map((i) => ({
          itemId: i.itemId,
          title: i.title,
          status: 'pending',
          needsConfirmation: i.needsConfirmation === true,
          review: undefined,
          ...(i.output !== undefined ? { output: i.output } : {}),
          links: [],
        }));
        return ok({ changed: true, items: items.map((i) => i.itemId) });
      }
      case 'checklist.update': {
        const item = this.checklist.find((i) => i.itemId === args.itemId);
        const evidence = args.evidence as Evidence | undefined;
        if (this.refuseUpdates) return refused('EVIDENCE_NOT_FOUND', 'No completed generation job j-0');
        if (!item) return refused('CHECKLIST_ITEM_NOT_FOUND', `No item ${String(args.itemId)}`);
        const checked = this.check(item, evidence);
        if (typeof checked === 'string') return refused('EVIDENCE_MISMATCH', checked);
        item.status = String(args.status);
        for (const id of checked) if (!item.links.includes(id)) item.links.push(id);
        return ok({ changed: true, itemId: item.itemId, status: item.status });
      }
      case 'document.write': {
        const artifactId = `00000000-0000-4000-8000-${String(++this.counter).padStart(12, '0')}`;
        this.documents.set(artifactId, [String(args.text)]);
        return ok({ artifact: { artifactId, version: 1 }, created: true });
      }
      case 'document.read': {
        const versions = this.documents.get(String(args.artifactId));
        if (versions === undefined) return refused('ARTIFACT_NOT_FOUND', 'No such document');
        return ok({ artifact: { artifactId: args.artifactId, version: versions.length }, text: versions.at(-1) });
      }
      case 'document.edit': {
        const versions = this.documents.get(String(args.artifactId));
        if (versions === undefined) return refused('ARTIFACT_NOT_FOUND', 'No such document');
        if (args.baseVersion !== versions.length) return refused('ARTIFACT_VERSION_CONFLICT', 'stale base');
        let text = versions.at(-1) ?? '';
        for (const edit of args.edits as Array<{ old: string; new: string }>) {
          if (text.split(edit.old).length !== 2) return refused('EDIT_SNIPPET_NOT_FOUND', 'no unique snippet');
          text = text.replace(edit.old, () => edit.new);
        }
        versions.push(text);
        return ok({ artifact: { artifactId: args.artifactId, version: versions.length }, edits: 1 });
      }
      case 'video.generate':
      case 'image.generate': {
        // As the runtime shows a paid async call once its job completed (it waits before the next step).
        const jobId = `job-${++this.counter}`;
        const kind = name.startsWith('video') ? 'video' : 'image';
        this.jobs.set(jobId, { kind, artifactId: `art-${this.counter}` });
        return ok({ jobId, artifactId: `art-${this.counter}`, kind });
      }
      default:
        return refused('TOOL_NOT_FOUND', name);
    }
  }
}

const model = new OfflineModelProvider();

interface TurnRecord {
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  reply: CompletionResult;
  requests: CompletionRequest[];
}

/** One turn: the person's message (or none: a turn the runtime started), steps until a reply without a call. */
async function runTurn(task: FakeTask, message?: string, tools: ToolSpec[] = TOOLS): Promise<TurnRecord> {
  const steps: ChatMessage[] = message === undefined ? [] : [{ role: 'user', content: message }];
  const calls: TurnRecord['calls'] = [];
  const requests: CompletionRequest[] = [];
  for (let step = 0; step < 20; step += 1) {
    const request: CompletionRequest = {
      messages: [{ role: 'system', content: 'You are Lomo.' }, { role: 'system', content: task.describe() }, ...steps],
      tools,
    };
    requests.push(request);
    const reply = await model.complete(request);
    if (reply.toolCalls.length === 0) return { calls, reply, requests };
    expect(reply.toolCalls).toHaveLength(1);
    const [call] = reply.toolCalls;
    const args = JSON.parse(call.arguments) as Record<string, unknown>;
    calls.push({ name: call.name, args });
    steps.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls });
    steps.push({ role: 'tool', toolCallId: call.id, content: task.run(call.name, args) });
  }
  throw new Error('the policy never ended its turn');
}

const names = (turn: TurnRecord) => turn.calls.map((c) => c.name);

// Sentences of this spec: none may appear in the README or the routing fixtures (the rules key
// on kinds of brief, not on sentences someone wrote down).
const KINDS: Array<[string, PlanKind | undefined, string]> = [
  [
    'Could you put together a forty second clip about our rooftop garden in spring?',
    'video',
    'our rooftop garden in spring',
  ],
  ['Je voudrais une petite vidéo sur le marché aux fleurs du dimanche', 'video', 'le marché aux fleurs du dimanche'],
  ['Ich brauche einen kurzen Film über die alte Mühle am Fluss', 'video', 'die alte Mühle am Fluss'],
  ['Necesito un vídeo breve sobre la panadería de mi barrio', 'video', 'la panadería de mi barrio'],
  ['想要一个关于老城区清晨菜市场的短片', 'video', '老城区清晨菜市场'],
  ['幫我做一部關於山間小火車的動畫', 'video', '山間小火車'],
  ['We need a set of three posters for the autumn chess tournament', 'posterSeries', 'the autumn chess tournament'],
  ["Crée une série d'affiches pour la fête du quartier des Lilas", 'posterSeries', 'la fête du quartier des Lilas'],
  ['Gestalte eine Plakatserie für das Sommerkino im Hof', 'posterSeries', 'das Sommerkino im Hof'],
  ['Diseña una serie de carteles para la feria del libro usado', 'posterSeries', 'la feria del libro usado'],
  ['给社区图书馆设计一套宣传海报', 'posterSeries', '社区图书馆宣传'],
  [
    'Draft a storyboard for a short film about two sisters repairing a bicycle',
    'storyboard',
    'two sisters repairing a bicycle',
  ],
  ['帮我做一个微电影的分镜，讲一只流浪猫找到家', 'storyboard', ''],
  // No brief: a one-shot poster, a question, a storyboard for no film, a note.
  ['make a poster of a red fox at dusk', undefined, ''],
  ['How long can videos be?', undefined, ''],
  ['Sketch a storyboard for the bakery leaflet', undefined, ''],
  ['Set the image to a darker blue', undefined, ''],
  // A video brief with a media verb: a media request where no plan runs.
  ['Make a ninety second film of the tram depot at night', 'video', 'the tram depot at night'],
];
const TRAM = KINDS[KINDS.length - 1][0];
/** Briefs of the output and revision tests: written nowhere else either. */
const HARBOUR = 'Could you draw up several posters announcing the harbour swimming race?';
const LIGHTHOUSE = 'We need a short teaser about the lighthouse keepers';
const SENTENCES = [...KINDS.map(([sentence]) => sentence), HARBOUR, LIGHTHOUSE];

describe('the offline plan policy', () => {
  it('keys on kinds of brief, not on sentences of the README or the fixtures', () => {
    const here = __dirname;
    const fixtures = join(here, '../../../../test/fixtures/routing');
    const written = [
      readFileSync(join(here, 'README.md'), 'utf8'),
      ...readdirSync(fixtures).map((f) => readFileSync(join(fixtures, f), 'utf8')),
    ]
      .join('\n')
      .toLowerCase();
    for (const sentence of SENTENCES) expect(written.includes(sentence.toLowerCase())).toBe(false);
    // Every source file of the plan rules.
    const source = readdirSync(here)
      .filter((f) => /^plan-[a-z-]+\.ts$/.test(f) && !f.endsWith('.spec.ts'))
      .map((f) => readFileSync(join(here, f), 'utf8'))
      .join('\n')
      .toLowerCase();
    for (const sentence of SENTENCES) expect(source.includes(sentence.toLowerCase())).toBe(false);
  });

  it.each(KINDS)('reads %j as a %s brief', (sentence, kind, subject) => {
    expect(planKindOf(sentence)).toBe(kind);
    if (kind !== undefined && subject !== '')
      expect(subjectOf(sentence, kind, /\p{Script=Han}/u.test(sentence))).toBe(subject);
  });

  it('first turn: records the brief, plans the video checklist, writes the script, marks it done and stops', async () => {
    const brief = KINDS[0][0];
    const task = new FakeTask(brief);
    const turn = await runTurn(task, brief);

    expect(names(turn)).toEqual(['brief.update', 'checklist.plan', 'document.write', 'checklist.update']);
    expect(turn.calls[0].args.brief).toContain('our rooftop garden in spring');
    expect(turn.calls[1].args).toEqual({
      items: [
        { itemId: 'script', title: 'Script', dependsOn: [] },
        { itemId: 'storyboard', title: 'Storyboard', dependsOn: ['script'], needsConfirmation: true },
        { itemId: 'shots', title: 'Shots', dependsOn: ['storyboard'] },
      ],
    });
    expect(turn.calls[2].args).toMatchObject({ title: 'Script: our rooftop garden in spring' });
    expect(String(turn.calls[2].args.text)).toMatch(/^# Script: our rooftop garden in spring\n\n## Opening/);
    expect(turn.calls[2].args).not.toHaveProperty('artifactId');
    expect(turn.calls[3].args).toEqual({
      itemId: 'script',
      status: 'done',
      evidence: { kind: 'artifact_version', artifactId: '00000000-0000-4000-8000-000000000001', version: 1 },
    });
    expect(turn.reply).toMatchObject({ text: 'Done: Script. Next: Storyboard.', finishReason: 'stop' });
    expect(task.checklist.map((i) => i.status)).toEqual(['done', 'pending', 'pending']);
  });

  it('plans without needsConfirmation where checklist.plan does not take it, and plans each kind', async () => {
    const series = new FakeTask(KINDS[6][0]);
    const turn = await runTurn(series, KINDS[6][0], toolsWith(false));
    expect(turn.calls[1].args).toEqual({
      items: [
        { itemId: 'concept', title: 'Concept', dependsOn: [] },
        { itemId: 'layouts', title: 'Layouts', dependsOn: ['concept'] },
        { itemId: 'posters', title: 'Posters', dependsOn: ['layouts'] },
      ],
    });
    expect(turn.reply.text).toBe('Done: Concept. Next: Layouts.');

    const board = new FakeTask('帮我做一个微电影的分镜，讲一只流浪猫找到家', 'zh-Hans');
    const zh = await runTurn(board, board.goal);
    expect(zh.calls[1].args).toMatchObject({
      items: [
        { itemId: 'outline', title: '大纲' },
        { itemId: 'storyboard', title: '分镜', needsConfirmation: true },
      ],
    });
    expect(zh.reply.text).toBe('「大纲」已完成。下一步：「分镜」。');
  });

  it('a continuation turn (no user message) works the next ready item and ends with the review ahead', async () => {
    const task = new FakeTask(KINDS[0][0]);
    await runTurn(task, task.goal);
    const turn = await runTurn(task);

    expect(names(turn)).toEqual(['document.write', 'checklist.update']);
    expect(turn.calls[0].args.title).toBe('Storyboard: our rooftop garden in spring');
    expect(String(turn.calls[0].args.text)).toContain('## Shot 1: Establishing');
    expect(turn.calls[1].args).toMatchObject({ itemId: 'storyboard', status: 'done' });
    expect(turn.reply.text).toBe('Done: Storyboard. It waits for your review before Shots.');
    // No user message anywhere in the turn's prompts.
    expect(turn.requests.every((r) => r.messages.every((m) => m.role !== 'user'))).toBe(true);

    // Until the person has reviewed it, nothing after the storyboard runs.
    task.checklist[1].review = 'open';
    const waiting = await runTurn(task);
    expect(waiting.calls).toEqual([]);
    expect(waiting.reply).toMatchObject({
      text: 'Waiting for your review of Storyboard before going on.',
      finishReason: 'stop',
    });
  });

  it('the approval turn after the review makes the shots, one generation call per step, then marks them done with every job', async () => {
    const task = new FakeTask(KINDS[2][0], 'de');
    await runTurn(task, task.goal);
    await runTurn(task);
    task.checklist[1].review = 'approved';
    const turn = await runTurn(task);

    expect(names(turn)).toEqual(['video.generate', 'video.generate', 'video.generate', 'checklist.update']);
    expect(turn.calls.slice(0, 3).map((c) => String(c.args.prompt))).toEqual([
      expect.stringMatching(/^Shot 1: Establishing\. .*die alte Mühle am Fluss/),
      expect.stringMatching(/^Shot 2: Action\. /),
      expect.stringMatching(/^Shot 3: Closing\. /),
    ]);
    // Optional ids stay empty; the rest is left to the schema's defaults.
    expect(turn.calls[0].args).toEqual({ prompt: turn.calls[0].args.prompt });
    expect(turn.calls[3].args).toEqual({
      itemId: 'shots',
      status: 'done',
      evidence: { kind: 'jobs', jobIds: ['job-3', 'job-4', 'job-5'] },
    });
    expect(turn.reply.text).toBe('Erledigt: Einstellungen. Das war der letzte Schritt.');
    expect(task.checklist.every((i) => i.status === 'done')).toBe(true);

    const after = await runTurn(task);
    expect(after).toMatchObject({ calls: [], reply: { text: 'Alle Schritte sind erledigt.' } });
  });

  it('plans declare what each item delivers: documents an artefact, shots three videos, posters three images', () => {
    const outputs = Object.fromEntries(
      Object.entries(PLANS).map(([kind, items]) => [kind, items.map((i) => [i.itemId, i.output])]),
    );
    expect(outputs).toEqual({
      video: [
        ['script', { kind: 'artifact' }],
        ['storyboard', { kind: 'artifact' }],
        ['shots', { kind: 'media', media: 'video', count: 3 }],
      ],
      posterSeries: [
        ['concept', { kind: 'artifact' }],
        ['layouts', { kind: 'artifact' }],
        ['posters', { kind: 'media', media: 'image', count: 3 }],
      ],
      storyboard: [
        ['outline', { kind: 'artifact' }],
        ['storyboard', { kind: 'artifact' }],
      ],
    });
  });

  it("declares each item's output where checklist.plan offers the field, and the runtime's count holds", async () => {
    // A kind of brief (a poster series), in a sentence written nowhere else.
    expect(planKindOf(HARBOUR)).toBe('posterSeries');
    const task = new FakeTask(HARBOUR);
    const first = await runTurn(task, HARBOUR, CURRENT);
    expect(first.calls[1].args).toEqual({
      items: [
        { itemId: 'concept', title: 'Concept', dependsOn: [], output: { kind: 'artifact' } },
        {
          itemId: 'layouts',
          title: 'Layouts',
          dependsOn: ['concept'],
          needsConfirmation: true,
          output: { kind: 'artifact' },
        },
        {
          itemId: 'posters',
          title: 'Posters',
          dependsOn: ['layouts'],
          output: { kind: 'media', media: 'image', count: 3 },
        },
      ],
    });
    await runTurn(task, undefined, CURRENT);
    task.checklist[1].review = 'approved';
    const posters = await runTurn(task, undefined, CURRENT);
    expect(names(posters)).toEqual(['image.generate', 'image.generate', 'image.generate', 'checklist.update']);
    // The fake task refuses evidence that does not match the declared output, as the runtime does.
    expect(posters.calls[3].args).toEqual({
      itemId: 'posters',
      status: 'done',
      evidence: { kind: 'jobs', jobIds: ['job-3', 'job-4', 'job-5'] },
    });
    expect(task.checklist.map((i) => i.status)).toEqual(['done', 'done', 'done']);
    expect(task.checklist[2].links).toEqual(['art-3', 'art-4', 'art-5']);
  });

  it('works an item by the output its line declares: one clip is one job', async () => {
    const task = new FakeTask(LIGHTHOUSE);
    task.checklist = [
      { itemId: 'notes', title: 'Notes', status: 'done', needsConfirmation: false, review: undefined, links: [] },
      {
        itemId: 'teaser',
        title: 'Teaser',
        status: 'pending',
        needsConfirmation: false,
        review: undefined,
        output: { kind: 'media', media: 'video', count: 1 },
        links: [],
      },
    ];
    const turn = await runTurn(task, undefined, CURRENT);
    expect(names(turn)).toEqual(['video.generate', 'checklist.update']);
    expect(turn.calls[1].args).toEqual({ itemId: 'teaser', status: 'done', evidence: { kind: 'job', jobId: 'job-1' } });
    // A decision is the person's, on a review card: the policy waits for it.
    task.checklist.push({
      itemId: 'pick',
      title: 'Pick a cut',
      status: 'pending',
      needsConfirmation: true,
      review: undefined,
      output: { kind: 'decision' },
      links: [],
    });
    expect(await runTurn(task, undefined, CURRENT)).toMatchObject({
      calls: [],
      reply: { text: 'Waiting for your review of Pick a cut before going on.' },
    });
  });

  it('counts the jobs the prompt already shows: the missing shot is made, and done names all three', async () => {
    const task = new FakeTask(KINDS[0][0]);
    await runTurn(task, task.goal, CURRENT);
    await runTurn(task, undefined, CURRENT);
    task.checklist[1].review = 'approved';
    // Two shots of earlier steps, as the runtime renders them, then the policy's next step.
    const shown: ChatMessage[] = [0, 1].flatMap((n) => {
      const content = task.run('video.generate', { prompt: `shot ${n}` });
      return [
        { role: 'assistant', content: '', toolCalls: [{ id: `c${n}`, name: 'video.generate', arguments: '{}' }] },
        { role: 'tool', toolCallId: `c${n}`, content },
      ] satisfies ChatMessage[];
    });
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are Lomo.' },
      { role: 'system', content: task.describe() },
      ...shown,
    ];
    const third = await model.complete({ messages, tools: CURRENT });
    expect(third.toolCalls.map((c) => [c.name, JSON.parse(c.arguments).prompt])).toEqual([
      ['video.generate', expect.stringMatching(/^Shot 3: Closing\. /)],
    ]);
    messages.push(
      { role: 'assistant', content: '', toolCalls: third.toolCalls },
      { role: 'tool', toolCallId: third.toolCalls[0].id, content: task.run('video.generate', { prompt: 'shot 2' }) },
    );
    const done = await model.complete({ messages, tools: CURRENT });
    expect(JSON.parse(done.toolCalls[0].arguments)).toEqual({
      itemId: 'shots',
      status: 'done',
      evidence: { kind: 'jobs', jobIds: ['job-3', 'job-4', 'job-5'] },
    });
    // Made but not completed: the "being made" line, and no call.
    const pending: ChatMessage[] = [
      ...messages.slice(0, 2),
      { role: 'assistant', content: '', toolCalls: [{ id: 'p', name: 'video.generate', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'p', content: JSON.stringify({ ok: true, status: 'pending' }) },
    ];
    const one = new FakeTask(task.goal);
    one.checklist = [{ ...task.checklist[2], output: { kind: 'media', media: 'video', count: 1 } }];
    pending[1] = { role: 'system', content: one.describe() };
    expect(await model.complete({ messages: pending, tools: CURRENT })).toMatchObject({
      text: PHRASES.en.mediaPending('video'),
      toolCalls: [],
    });
  });

  it('a poster series makes three images after its layouts are approved (a "chose" counts as approved)', async () => {
    const task = new FakeTask(KINDS[9][0], 'es');
    await runTurn(task, task.goal);
    await runTurn(task);
    task.checklist[1].review = 'chose opt-2';
    const turn = await runTurn(task);
    expect(names(turn)).toEqual(['image.generate', 'image.generate', 'image.generate', 'checklist.update']);
    expect(turn.reply.text).toBe('Hecho: Carteles. Era la última etapa.');
  });

  it('an adjusted review without document.edit: the document is rewritten with the note, and marked done again', async () => {
    const task = new FakeTask(KINDS[0][0]);
    await runTurn(task, task.goal);
    await runTurn(task);
    task.checklist[1].status = 'in_progress';
    task.checklist[1].review = 'adjust: end the last shot at night, with the lights on';
    const turn = await runTurn(task);

    expect(names(turn)).toEqual(['document.write', 'checklist.update']);
    const text = String(turn.calls[0].args.text);
    expect(text).toContain('## Revision\n\nAfter review: end the last shot at night, with the lights on');
    expect(text).toContain('(Revised: end the last shot at night, with the lights on.)');
    expect(turn.calls[1].args).toMatchObject({ itemId: 'storyboard', status: 'done' });
    // A rejected stage blocks everything after it.
    task.checklist[1].status = 'blocked';
    task.checklist[1].review = 'rejected: not this direction';
    expect((await runTurn(task)).reply.text).toBe('I cannot go on right now: Storyboard is blocked.');
  });

  it('an adjusted review of a linked document: that document is revised in place with the note, and is the evidence', async () => {
    const task = new FakeTask(LIGHTHOUSE);
    expect(planKindOf(LIGHTHOUSE)).toBe('video');
    await runTurn(task, LIGHTHOUSE, CURRENT);
    await runTurn(task, undefined, CURRENT);
    const board = task.checklist[1];
    expect(board.links).toEqual(['00000000-0000-4000-8000-000000000002']);
    board.status = 'in_progress';
    board.review = 'adjust: open on the keepers at the lamp, fewer wide shots';
    const turn = await runTurn(task, undefined, CURRENT);

    expect(names(turn)).toEqual(['document.read', 'document.edit', 'checklist.update']);
    expect(turn.calls[1].args).toEqual({
      artifactId: board.links[0],
      baseVersion: 1,
      edits: [
        {
          old: '# Storyboard: the lighthouse keepers',
          new: '# Storyboard: the lighthouse keepers\n\n## Revision\n\nAfter review: open on the keepers at the lamp, fewer wide shots',
        },
      ],
    });
    // The note reached the document's next version, and that version is what "done" shows.
    const versions = task.documents.get(board.links[0]) ?? [];
    expect(versions).toHaveLength(2);
    expect(versions[1]).toContain('After review: open on the keepers at the lamp, fewer wide shots');
    expect(versions[1]).toContain('## Shot 1: Establishing');
    expect(turn.calls[2].args).toEqual({
      itemId: 'storyboard',
      status: 'done',
      evidence: { kind: 'artifact_version', artifactId: board.links[0], version: 2 },
    });
    expect(board.links).toHaveLength(1);
  });

  it('an adjusted review whose linked document cannot be revised in place gets a new document with the note', async () => {
    const task = new FakeTask(LIGHTHOUSE);
    await runTurn(task, LIGHTHOUSE, CURRENT);
    await runTurn(task, undefined, CURRENT);
    const board = task.checklist[1];
    task.documents.delete(board.links[0]);
    board.status = 'in_progress';
    board.review = 'adjust: warmer light';
    const turn = await runTurn(task, undefined, CURRENT);
    expect(names(turn)).toEqual(['document.read', 'document.write', 'checklist.update']);
    expect(String(turn.calls[1].args.text)).toContain('## Revision\n\nAfter review: warmer light');
    expect(turn.calls[2].args).toMatchObject({
      evidence: { kind: 'artifact_version', artifactId: '00000000-0000-4000-8000-000000000003', version: 1 },
    });
  });

  it('a refused checklist.update is reported once, with no retry', async () => {
    const task = new FakeTask(KINDS[3][0], 'es');
    task.refuseUpdates = true;
    const turn = await runTurn(task, task.goal);
    expect(names(turn)).toEqual(['brief.update', 'checklist.plan', 'document.write', 'checklist.update']);
    expect(turn.reply).toMatchObject({
      text: 'La lista no aceptó esa actualización: No completed generation job j-0',
      toolCalls: [],
      finishReason: 'stop',
    });
  });

  it('the same prompt gives the same reply', async () => {
    const task = new FakeTask(KINDS[4][0], 'zh-Hans');
    const first = await runTurn(task, task.goal);
    for (const request of first.requests) {
      const [a, b] = [await model.complete(request), await model.complete(request)];
      expect(a).toEqual(b);
    }
  });

  it('writes Traditional characters for zh-Hant', async () => {
    const task = new FakeTask(KINDS[5][0], 'zh-Hant');
    const turn = await runTurn(task, task.goal);
    expect(turn.calls[2].args.title).toBe('腳本：山間小火車');
    expect(turn.reply.text).toBe('「腳本」已完成。下一步：「分鏡」。');
  });

  it('one-shot requests and lightweight tasks keep the rules they had', async () => {
    const poster = await runTurn(
      new FakeTask('make a poster of a red fox at dusk'),
      'make a poster of a red fox at dusk',
    );
    expect(poster.calls).toEqual([{ name: 'image.generate', args: { prompt: 'a poster of a red fox at dusk' } }]);
    const quick = new FakeTask(TRAM, 'en', 'lightweight');
    const video = await runTurn(quick, quick.goal);
    expect(names(video)).toEqual(['video.generate']);
    // Without the plan tools, a video brief is a media request as before.
    const plain = TOOLS.filter((t) => !t.name.startsWith('checklist.'));
    expect(names(await runTurn(new FakeTask(TRAM), TRAM, plain))).toEqual(['video.generate']);
    // A person's message that is no brief, in a planned task, is left to the other rules.
    const task = new FakeTask(KINDS[0][0]);
    await runTurn(task, task.goal);
    expect(names(await runTurn(task, 'remember that the client likes green'))).toEqual([]);
  });

  it('reads checklist lines with or without the review suffix', () => {
    const context = parseTaskContext([
      {
        role: 'system',
        content: [
          'Task goal: a clip',
          'Language of the person: en',
          'Task kind: persistent',
          'Checklist:',
          '- [done] script: Script',
          '- [done] storyboard: Storyboard {review: chose opt-2}',
          '- [in_progress] cut: Cut {review: adjust: shorter, and: warmer}',
          '- [blocked] grade: Grade {review: rejected: too dark}',
          '- [pending] mix: Mix {review: needed}',
          '(2 earlier step(s) of this turn are not shown.)',
        ].join('\n'),
      },
    ]);
    expect(context.checklist).toEqual([
      { itemId: 'script', title: 'Script', status: 'done' },
      { itemId: 'storyboard', title: 'Storyboard', status: 'done', review: { state: 'chose', option: 'opt-2' } },
      { itemId: 'cut', title: 'Cut', status: 'in_progress', review: { state: 'adjust', note: 'shorter, and: warmer' } },
      { itemId: 'grade', title: 'Grade', status: 'blocked', review: { state: 'rejected', note: 'too dark' } },
      { itemId: 'mix', title: 'Mix', status: 'pending', review: { state: 'needed' } },
    ]);
    expect(nextWorkable(context.checklist ?? [])?.itemId).toBe('cut');
  });

  it('without the review suffix in the context, a done stage does not hold the next one back', async () => {
    const task = new FakeTask(KINDS[0][0], 'en', 'persistent', false);
    await runTurn(task, task.goal);
    await runTurn(task);
    expect(names(await runTurn(task))).toEqual([
      'video.generate',
      'video.generate',
      'video.generate',
      'checklist.update',
    ]);
  });
});
