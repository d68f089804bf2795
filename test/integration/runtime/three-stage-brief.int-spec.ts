import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteBlobStore } from '@lomo/blobs';
import { streams } from '@lomo/contracts';
import { ScriptedModelProvider, type CompletionRequest, type ScriptedReply } from '@lomo/llm';
import { createPlanTools, resolveCheckpoint } from '@lomo/runtime';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { ArtifactCommandService, DocumentTextStore } from '@lomo/workspace';
import { stageTool } from './support/stage-tool';
import { ofType } from './support/turn-events';

// Article §8's three-stage brief (script → storyboard → shots) through the real worker: the
// scripted model plans the checklist, writes each stage as a document, marks it done with that
// version as evidence, and ends its turn with a summary after every stage. Every next turn comes
// from the runtime's ContinuationDecided, none from the person typing "continue".

const ids = { uuid: () => randomUUID() };
const uuidIn = (text: string) => /"artifactId":"([0-9a-f-]{36})"/.exec(text)?.[1];
const lastToolOutput = (request: CompletionRequest) =>
  [...request.messages].reverse().find((m) => m.role === 'tool')?.content ?? '';

describe('a three-stage brief runs to completion without "continue"', () => {
  let harness: RuntimeHarness;
  let dir: string;
  let texts: SqliteBlobStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lomo-three-stage-'));
    texts = new SqliteBlobStore({ filename: join(dir, 'texts.sqlite'), synchronous: 'NORMAL' });
    harness = await RuntimeHarness.open({
      label: 'three-stage',
      tools: ({ store }) => {
        const artifacts = new ArtifactCommandService({
          store,
          texts: new DocumentTextStore(texts),
          // Documents only: their texts and patches are the only blobs written here.
          media: texts,
          ids,
        });
        return [...createPlanTools({ store, ids }), stageTool(artifacts)];
      },
    });
  });
  afterEach(async () => {
    await harness.close();
    await texts.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One stage: write it, mark it done with the version written, end the turn with a summary. */
  const stage = (itemId: string, title: string) => [
    {
      label: `${itemId}: write`,
      reply: { toolCalls: [{ name: 'stage.write', arguments: { title, text: `${title} of the harbour film.` } }] },
    },
    {
      label: `${itemId}: done`,
      reply: (request: CompletionRequest): ScriptedReply => ({
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

  it('script, storyboard and shots, one turn each, continued by the runtime and finished by it', async () => {
    const { taskId } = await harness.createTask('Make a 20 second video of the harbour at dawn', 'persistent');
    const model = new ScriptedModelProvider([
      {
        label: 'plan',
        reply: {
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
        },
      },
      ...stage('script', 'Script'),
      ...stage('storyboard', 'Storyboard'),
      ...stage('shots', 'Shots'),
    ]);
    const { worker } = harness.worker('worker-a', model);

    await worker.wake({ taskId, reason: 'message' });

    const task = await harness.read(streams.task(taskId));
    // The person wrote once; every later turn was opened by the runtime's own decision.
    expect(ofType(task, 'MessageDeliveredToInbox')).toHaveLength(1);
    expect(ofType<{ reason: string }>(task, 'TurnOpened').map((t) => t.reason)).toEqual([
      'message',
      'continuation',
      'continuation',
    ]);
    expect(
      ofType<{ decision: string; reason: string; progress: string[] }>(task, 'ContinuationDecided').map(
        ({ decision, reason, progress }) => ({ decision, reason, progress }),
      ),
    ).toEqual([
      { decision: 'continue', reason: 'pending_items', progress: ['artifact_version', 'item_done', 'person_input'] },
      { decision: 'continue', reason: 'pending_items', progress: ['artifact_version', 'item_done'] },
      { decision: 'finish', reason: 'checklist_complete', progress: ['artifact_version', 'item_done'] },
    ]);
    const done = ofType<{ itemId: string; status: string; evidence?: { kind: string } }>(task, 'ChecklistItemChanged');
    expect(done.map((d) => [d.itemId, d.status, d.evidence?.kind])).toEqual([
      ['script', 'done', 'artifact_version'],
      ['storyboard', 'done', 'artifact_version'],
      ['shots', 'done', 'artifact_version'],
    ]);
    // No card was needed for any of it, and nothing was asked twice.
    expect(ofType(task, 'CheckpointOpened')).toEqual([]);
    model.assertAllConsumed();
  });

  it('a review item reached without a model question gets an automatic card; approving it by card resumes exactly once, a second approval is a typed refusal', async () => {
    const { taskId } = await harness.createTask('Make a 20 second video of the harbour at dawn', 'persistent');
    const model = new ScriptedModelProvider([
      {
        label: 'plan',
        reply: {
          toolCalls: [
            {
              name: 'checklist.plan',
              arguments: {
                items: [
                  { itemId: 'script', title: 'Script' },
                  { itemId: 'storyboard', title: 'Storyboard', dependsOn: ['script'], needsConfirmation: true },
                  { itemId: 'shots', title: 'Shots', dependsOn: ['storyboard'] },
                ],
              },
            },
          ],
        },
      },
      ...stage('script', 'Script'),
      // The model ends its turn after the storyboard and asks nothing: the runtime opens the card.
      ...stage('storyboard', 'Storyboard'),
      {
        label: 'shots after the approval: the review is in the context',
        reply: (request: CompletionRequest): ScriptedReply => {
          const context = request.messages.map((m) => m.content).join('\n');
          // The item's line: its title, the artefact linked to it, and the person's review.
          if (!/storyboard: Storyboard \{artefacts: [0-9a-f-]{36}\} \{review: approved\}/.test(context))
            throw new Error('the approved review is not in the context');
          return { toolCalls: [{ name: 'stage.write', arguments: { title: 'Shots', text: 'Shots of the harbour.' } }] };
        },
      },
      ...stage('shots', 'Shots').slice(1),
    ]);
    const { worker } = harness.worker('worker-a', model);

    await worker.wake({ taskId, reason: 'message' });

    let task = await harness.read(streams.task(taskId));
    const cards = ofType<{ checkpointId: string; kind: string; itemId?: string }>(task, 'CheckpointOpened');
    expect(cards.map(({ kind, itemId }) => ({ kind, itemId }))).toEqual([{ kind: 'review', itemId: 'storyboard' }]);
    expect(ofType<{ decision: string; reason: string }>(task, 'ContinuationDecided').at(-1)).toMatchObject({
      decision: 'await_person',
      reason: 'review_needed',
    });
    // Nothing after the review ran before the person decided.
    expect(ofType<{ itemId: string }>(task, 'ChecklistItemChanged').map((c) => c.itemId)).toEqual([
      'script',
      'storyboard',
    ]);

    const deps = harness.commandDeps();
    const approval = {
      taskId,
      checkpointId: cards[0].checkpointId,
      decision: 'approve' as const,
      resolvedBy: 'user_1',
    };
    await resolveCheckpoint(deps, approval);
    await expect(resolveCheckpoint(deps, approval)).rejects.toMatchObject({ code: 'CHECKPOINT_ALREADY_RESOLVED' });
    // Two wakes (a redelivered one too) open one turn.
    await worker.wake({ taskId, reason: 'approval' });
    await worker.wake({ taskId, reason: 'approval' });

    task = await harness.read(streams.task(taskId));
    const opened = ofType<{ reason: string }>(task, 'TurnOpened').map((t) => t.reason);
    expect(opened).toEqual(['message', 'continuation', 'approval']);
    expect(ofType<{ decision: string; reason: string }>(task, 'ContinuationDecided').at(-1)).toMatchObject({
      decision: 'finish',
      reason: 'checklist_complete',
    });
    // The scenario's counters: the person typed no "continue" (one message: the brief), was asked
    // once (the review the plan flagged), and nothing was made twice.
    const continuePrompts = ofType(task, 'MessageDeliveredToInbox').length - 1;
    const unnecessaryConfirmations = ofType<{ kind: string }>(task, 'CheckpointOpened').filter(
      (c) => c.kind !== 'review',
    ).length;
    const written = ofType<{ itemId: string; status: string }>(task, 'ChecklistItemChanged').filter(
      (c) => c.status === 'done',
    );
    const duplicates = written.length - new Set(written.map((c) => c.itemId)).size;
    expect({ continuePrompts, unnecessaryConfirmations, duplicates }).toEqual({
      continuePrompts: 0,
      unnecessaryConfirmations: 0,
      duplicates: 0,
    });
    model.assertAllConsumed();
  });

  it('a model that says an item is done without evidence, or with evidence of nothing, is refused and the item stays open', async () => {
    const { taskId } = await harness.createTask('Make a storyboard of the harbour', 'persistent');
    const model = new ScriptedModelProvider([
      {
        label: 'plan',
        reply: {
          toolCalls: [
            { name: 'checklist.plan', arguments: { items: [{ itemId: 'storyboard', title: 'Storyboard' }] } },
          ],
        },
      },
      {
        label: 'claims done',
        reply: {
          text: 'The person approved it, so it is done.',
          toolCalls: [
            { name: 'checklist.update', arguments: { itemId: 'storyboard', status: 'done' } },
            {
              name: 'checklist.update',
              arguments: {
                itemId: 'storyboard',
                status: 'done',
                evidence: { kind: 'artifact_version', artifactId: '00000000-0000-4000-8000-00000000abcd', version: 1 },
              },
            },
            {
              name: 'checklist.update',
              arguments: {
                itemId: 'storyboard',
                status: 'done',
                evidence: { kind: 'job', jobId: '00000000-0000-4000-8000-00000000dcba' },
              },
            },
          ],
        },
      },
      { label: 'gives up', reply: { text: 'I could not finish the storyboard.' } },
      // The runtime continues once (items left, the message was consumed), then stops: no progress.
      { label: 'again', reply: { text: 'Still nothing to show.' } },
      { label: 'and again', reply: { text: 'Nothing yet.' } },
    ]);
    const { worker } = harness.worker('worker-a', model);

    await worker.wake({ taskId, reason: 'message' });

    const [turnId] = ofType<{ turnId: string }>(await harness.read(streams.task(taskId)), 'TurnOpened').map(
      (t) => t.turnId,
    );
    const results = ofType<{ status: string; error?: { code: string } }>(
      await harness.read(streams.turn(turnId)),
      'ToolCallCompleted',
    ).slice(1);
    expect(results.map((r) => r.error?.code)).toEqual([
      'EVIDENCE_REQUIRED',
      'EVIDENCE_NOT_FOUND',
      'EVIDENCE_NOT_FOUND',
    ]);
    const task = await harness.read(streams.task(taskId));
    expect(ofType(task, 'ChecklistItemChanged')).toEqual([]);
    expect(ofType<{ decision: string; reason: string }>(task, 'ContinuationDecided').at(-1)).toMatchObject({
      decision: 'stop',
      reason: 'no_progress',
    });
    model.assertAllConsumed();
  });
});
