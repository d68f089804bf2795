import { createHash, randomUUID } from 'node:crypto';
import type { BlobRef } from '@lomo/blobs';
import { streams } from '@lomo/contracts';
import { ScriptedModelProvider } from '@lomo/llm';
import type { MemoryRecall, ProfileSnapshot, RecalledMemory } from '@lomo/runtime';
import { HARNESS_USER, HARNESS_WORKSPACE, RuntimeHarness, type HarnessWorker } from '@lomo/runtime/testing';
import { operatorCaller } from '../testing/rebuild-world';
import { replayTurn } from './replay-turn';
import type { ReplayOptions } from './replay.types';

// A step's profile and memories in a replay are the ones it recorded (ModelStepCommitted.context:
// the profile version, the recalled memory version ids), read back from the person's memory
// stream: no index, no embedder, no live profile is asked, and what was purged since stays out.

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('a replayed step shows the memories and profile it recorded', () => {
  let harness: RuntimeHarness;
  let worker: HarnessWorker;
  let turnId: string;
  let memoryText: BlobRef;
  const ids = { memoryId: randomUUID(), versionId: randomUUID() };
  const profile: ProfileSnapshot = { current: async () => ({ version: 3, text: 'Prefers short answers.' }) };
  const recall: MemoryRecall = {
    recall: async (): Promise<RecalledMemory[]> => [
      {
        memoryId: ids.memoryId,
        versionId: ids.versionId,
        subject: 'brand.colour.main',
        text: 'The brand colour is teal',
        origin: 'explicit',
        scope: 'long_term',
        validFrom: '2026-11-01T00:00:00.000Z',
        validTo: null,
        score: 0.9,
      },
    ],
  };
  const appendMemory = (type: string, data: unknown) =>
    harness.store.append(
      streams.memory(HARNESS_WORKSPACE, HARNESS_USER),
      [
        {
          eventId: randomUUID(),
          type,
          data,
          metadata: {
            correlationId: 'memory',
            causationId: null,
            workspaceId: HARNESS_WORKSPACE,
            actor: { kind: 'system', component: 'memory' },
          },
        },
      ],
      'any',
    );

  beforeEach(async () => {
    // Given the person's memory stream (a version and profile version 3, their texts in the
    // BlobStore) and a step recorded by a worker whose recall and profile answered from it
    harness = await RuntimeHarness.open({ label: 'replay-memory' });
    memoryText = await harness.blobs.put('The brand colour is teal', 'text/plain');
    const profileText = await harness.blobs.put('Prefers short answers.', 'text/plain');
    await appendMemory('MemoryVersionCreated', {
      ...ids,
      version: 1,
      subject: 'brand.colour.main',
      kind: 'fact',
      scope: { kind: 'long_term' },
      origin: 'explicit',
      text: memoryText,
      fingerprint: sha('teal'),
      validFrom: '2026-11-01T00:00:00.000Z',
      evidence: [{ evidenceId: randomUUID(), role: 'ORIGIN' }],
      derivedFrom: [],
      cause: 'extracted',
    });
    await appendMemory('ProfileVersionPublished', {
      version: 3,
      text: profileText,
      memoryVersionIds: [ids.versionId],
      reason: 'memories_changed',
    });
    const { taskId } = await harness.createTask('Design a launch poster', 'lightweight', HARNESS_USER);
    const model = new ScriptedModelProvider([{ reply: { text: 'A teal poster it is.' } }]);
    worker = harness.worker('worker-a', model, { context: { recall, profile } });
    await worker.worker.wake({ taskId, reason: 'message' });
    const opened = (await harness.read(streams.task(taskId))).find((e) => e.type === 'TurnOpened');
    turnId = (opened?.data as { turnId: string }).turnId;
  });
  afterEach(async () => harness.close());

  const replay = (model: ReplayOptions['model'] = 'recorded') =>
    replayTurn({ events: harness.store, blobs: harness.blobs }, operatorCaller, turnId, { model }, worker.deps);

  it('reproduces the prompt from the recorded version ids and profile version, without asking the live recall or profile', async () => {
    const live = [jest.spyOn(recall, 'recall'), jest.spyOn(profile, 'current')];

    const report = await replay();

    expect(report.steps[0].context).toMatchObject({ status: 'reproduced' });
    for (const spy of live) expect(spy).not.toHaveBeenCalled();
  });

  it('a memory version purged since is left out: the tail drifts, the memory text is gone', async () => {
    // Given the version purged by a forgetting, its text deleted
    await appendMemory('MemoryVersionPurged', {
      forgettingId: randomUUID(),
      memoryId: ids.memoryId,
      versionId: ids.versionId,
    });
    await harness.blobs.delete(memoryText.hash);

    const model = new ScriptedModelProvider([{ reply: { text: 'A poster it is.' } }]);

    // When the step is replayed with a model
    const report = await replay(model);

    // Then the memory is not in what the model was sent, and the step drifts in its tail
    const sent = model.calls.map((c) => JSON.stringify(c.request.messages)).join('\n');
    expect(sent).toContain('Design a launch poster');
    expect(sent).not.toContain('The brand colour is teal');
    expect(report.steps[0].context).toMatchObject({ status: 'context_drift', firstDifferingLayer: 'tail' });
  });
});
