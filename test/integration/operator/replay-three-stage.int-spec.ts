import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteBlobStore } from '@lomo/blobs';
import { canonicalJson, streams } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { ScriptedModelProvider, type CompletionRequest, type ScriptedReply, type ScriptedStep } from '@lomo/llm';
import { parsePromptPatch, replayTurn } from '@lomo/operator';
import { operatorCaller } from '@lomo/operator/testing';
import { createPlanTools } from '@lomo/runtime';
import { HARNESS_USER, RuntimeHarness, type HarnessWorker } from '@lomo/runtime/testing';
import { ArtifactCommandService, DocumentTextStore } from '@lomo/workspace';
import { stageTool } from '../runtime/support/stage-tool';

// The must-show on the recorded three-stage brief (article §8: script → storyboard →
// shots, one turn each, continued by the runtime), recorded by the real worker with a scripted
// model as test/integration/runtime/three-stage-brief.int-spec.ts records it, then replayed.

const ids = { uuid: () => randomUUID() };
const uuidIn = (text: string) => /"artifactId":"([0-9a-f-]{36})"/.exec(text)?.[1];
const lastToolOutput = (request: CompletionRequest) =>
  [...request.messages].reverse().find((m) => m.role === 'tool')?.content ?? '';

const PLAN: ScriptedReply = {
  toolCalls: [
    {
      name: 'checklist.plan',
      arguments: {
        items: [
          { itemId: 'script', title: 'Script' },
          { itemId: 'storyboard', title: 'Storyboard', dependsOn: ['script'] },
          { itemId: 'shots', title: 'Shots', dependsOn: ['storyboard'] },
        ],
      },
    },
  ],
};
const write = (title: string): ScriptedReply => ({
  toolCalls: [{ name: 'stage.write', arguments: { title, text: `${title} of the harbour film.` } }],
});

/** One stage: write it, mark it done with the version written, end the turn with a summary. */
const stage = (itemId: string, title: string): ScriptedStep[] => [
  { label: `${itemId}: write`, reply: write(title) },
  {
    label: `${itemId}: done`,
    reply: (request) => ({
      toolCalls: [
        {
          name: 'checklist.update',
          arguments: {
            itemId,
            status: 'done',
            evidence: {
              kind: 'artifact_version',
              artifactId: uuidIn(lastToolOutput(request)) ?? 'missing',
              version: 1,
            },
          },
        },
      ],
    }),
  },
  { label: `${itemId}: summary`, reply: { text: `${title} is ready.` } },
];

async function storeFingerprint(store: EventStore) {
  const events = await store.readAll();
  const byStream = new Map<string, string[]>();
  for (const e of events)
    byStream.set(e.metadata.streamId, [...(byStream.get(e.metadata.streamId) ?? []), canonicalJson(e)]);
  return {
    head: await store.headPosition(),
    streams: Object.fromEntries(
      [...byStream].map(([id, lines]) => [id, createHash('sha256').update(lines.join('\n')).digest('hex')]),
    ),
  };
}

describe('replaying the recorded three-stage brief', () => {
  let harness: RuntimeHarness;
  let worker: HarnessWorker;
  let dir: string;
  let texts: SqliteBlobStore;
  let turns: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lomo-replay-three-stage-'));
    texts = new SqliteBlobStore({ filename: join(dir, 'texts.sqlite'), synchronous: 'NORMAL' });
    harness = await RuntimeHarness.open({
      label: 'replay-three-stage',
      tools: ({ store }) => {
        const artifacts = new ArtifactCommandService({ store, texts: new DocumentTextStore(texts), media: texts, ids });
        return [...createPlanTools({ store, ids }), stageTool(artifacts)];
      },
    });
    const { taskId } = await harness.createTask(
      'Make a 20 second video of the harbour at dawn',
      'persistent',
      HARNESS_USER,
    );
    const model = new ScriptedModelProvider([
      { label: 'plan', reply: PLAN },
      ...stage('script', 'Script'),
      ...stage('storyboard', 'Storyboard'),
      ...stage('shots', 'Shots'),
    ]);
    worker = harness.worker('worker-a', model);
    await worker.worker.wake({ taskId, reason: 'message' });
    model.assertAllConsumed();
    turns = (await harness.read(streams.task(taskId)))
      .filter((e) => e.type === 'TurnOpened')
      .map((e) => (e.data as { turnId: string }).turnId);
  });
  afterAll(async () => {
    await harness.close();
    await texts.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const replay = (turnId: string, options: Parameters<typeof replayTurn>[3]) =>
    replayTurn({ events: harness.store, blobs: harness.blobs }, operatorCaller, turnId, options, worker.deps);

  it('with the recorded replies, every step of every turn is reproduced, with no call made and nothing appended', async () => {
    // Given spies on everything the replay is handed: the worker's model, bus, scheduler, every
    // tool (the plan tools write to the task stream, stage.write to artefacts), the stores
    const spies = [
      jest.spyOn(worker.deps.model, 'complete'),
      jest.spyOn(worker.deps.bus, 'publish'),
      jest.spyOn(worker.deps.scheduler, 'every'),
      ...harness.tools.list().map((tool) => jest.spyOn(tool, 'run')),
      jest.spyOn(harness.store, 'append'),
      jest.spyOn(harness.blobs, 'put'),
      jest.spyOn(harness.blobs, 'delete'),
      jest.spyOn(texts, 'put'),
    ];
    const before = await storeFingerprint(harness.store);

    // When each of the three turns is replayed with the recorded replies
    const reports = [];
    for (const turnId of turns) reports.push(await replay(turnId, { model: 'recorded' }));

    // Then every step (plan, write, done, summary per stage) is reproduced and decides as recorded
    expect(reports.map((r) => r.steps.length)).toEqual([4, 3, 3]);
    for (const report of reports) {
      expect(report.steps.map((s) => s.context?.status)).toEqual(report.steps.map(() => 'reproduced'));
      expect(report.steps.map((s) => s.diverged)).toEqual(report.steps.map(() => false));
    }
    expect(reports[0].steps.map((s) => s.toolCalls.map((c) => `${c.tool}:${c.status}`))).toEqual([
      ['checklist.plan:reused'],
      ['stage.write:reused'],
      ['checklist.update:reused'],
      [],
    ]);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    expect(await storeFingerprint(harness.store)).toEqual(before);
    for (const spy of spies) spy.mockRestore();
  });

  it('a prompt patch on a tool description changes the scripted answer: the diff diverges at that step, its call is stubbed, the rest is not replayed', async () => {
    // Given a patch of stage.write's description, and a model that writes capitals when told to
    const patch = parsePromptPatch({
      patches: [
        { tool: 'stage.write', description: 'Write one stage of the brief as a document. Titles in capitals.' },
      ],
    });
    const model = new ScriptedModelProvider([
      { label: 'plan', reply: PLAN },
      {
        label: 'write, as the description says',
        reply: (request) => write(request.tools.some((t) => t.description.includes('capitals')) ? 'SCRIPT' : 'Script'),
      },
    ]);
    const before = await storeFingerprint(harness.store);

    // When the first turn is replayed with it
    const report = await replay(turns[0], { model, promptPatch: patch });

    // Then step 1 decides as recorded, step 2 diverges with a stage.write nobody recorded (stubbed),
    // and steps 3 and 4 are not replayed
    expect(report.divergedAt).toBe(2);
    expect(report.steps.map((s) => [s.step, s.status, s.diverged])).toEqual([
      [1, 'replayed', false],
      [2, 'replayed', true],
      [3, 'not_replayed', false],
      [4, 'not_replayed', false],
    ]);
    expect(report.steps[1].patched).toEqual(['tool stage.write']);
    expect(report.steps[1].toolCalls).toEqual([
      {
        callId: null,
        tool: 'stage.write',
        recorded: null,
        replayed: { title: 'SCRIPT', text: 'SCRIPT of the harbour film.' },
        status: 'stubbed',
      },
      {
        callId: `${turns[0]}:2:0`,
        tool: 'stage.write',
        recorded: { title: 'Script', text: 'Script of the harbour film.' },
        replayed: null,
        status: 'not_called',
      },
    ]);
    // The recorded calls after the branch stopped are listed, as not replayed
    expect(report.steps[2].toolCalls.map((c) => [c.tool, c.status, c.replayed])).toEqual([
      ['checklist.update', 'not_replayed', null],
    ]);
    model.assertAllConsumed();
    expect(await storeFingerprint(harness.store)).toEqual(before);
  });
});
