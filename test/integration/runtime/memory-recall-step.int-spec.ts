import type { BlobRef } from '@lomo/blobs';
import { streams } from '@lomo/contracts';
import { ScriptedModelProvider, match } from '@lomo/llm';
import { PromptArchive, type MemoryRecall, type RecallQuery, type RecalledMemory } from '@lomo/runtime';
import { HARNESS_USER, RuntimeHarness } from '@lomo/runtime/testing';
import { ofType, turnIdsOf } from './support/turn-events';

// Recall through the real step loop (article §7.4): recalled memories reach the tail of the
// person's own steps with their origin marked; a recall that fails or outlasts its deadline is
// skipped, the step records why, and the turn goes on and completes.

type Committed = {
  promptRef: BlobRef;
  context?: { memory?: { status: string; versionIds: string[]; error?: string } };
};

const memory = (over: Partial<RecalledMemory> = {}): RecalledMemory => ({
  memoryId: '11111111-1111-4111-8111-111111111111',
  versionId: '22222222-2222-4222-8222-222222222222',
  subject: 'brand.colour.main',
  text: 'The brand colour is teal with off-white',
  origin: 'explicit',
  scope: 'long_term',
  validFrom: '2026-11-01T00:00:00.000Z',
  validTo: null,
  score: 1,
  ...over,
});

class RecordingRecall implements MemoryRecall {
  readonly queries: RecallQuery[] = [];
  constructor(private readonly answer: (q: RecallQuery) => Promise<RecalledMemory[]>) {}
  recall(query: RecallQuery): Promise<RecalledMemory[]> {
    this.queries.push(query);
    return this.answer(query);
  }
}

describe('memory recall in a step', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'memory-recall' })));
  afterEach(async () => harness.close());

  const run = async (recall: MemoryRecall, from: string | undefined, timeoutMs = 300) => {
    const { taskId } = await harness.createTask('Design a launch poster', 'lightweight', from);
    const model = new ScriptedModelProvider([
      { expect: match.lastUserMessageContains('poster'), reply: { text: 'Done.' } },
    ]);
    const { worker } = harness.worker('worker-a', model, { context: { recall, recallTimeoutMs: timeoutMs } });
    await worker.wake({ taskId, reason: 'message' });
    const [turnId] = await turnIdsOf(harness, taskId);
    const turn = await harness.read(streams.turn(turnId));
    const [step] = ofType<Committed>(turn, 'ModelStepCommitted');
    const prompt = await new PromptArchive(harness.blobs).load(step.promptRef);
    return { taskId, turn, step, prompt };
  };

  it("shows the sender's recalled memories in the tail, marked by origin, and records their versions in the step", async () => {
    const inferred = memory({
      versionId: '33333333-3333-4333-8333-333333333333',
      text: 'Often picks cyberpunk imagery',
      origin: 'inferred',
    });
    const recall = new RecordingRecall(() => Promise.resolve([memory(), inferred]));
    const { taskId, turn, step, prompt } = await run(recall, HARNESS_USER);

    expect(recall.queries).toHaveLength(1);
    expect(recall.queries[0]).toMatchObject({ userId: HARNESS_USER, taskId, workspaceId: expect.any(String) });
    expect(recall.queries[0].text).toContain('launch poster');
    expect(step.context?.memory).toEqual({
      status: 'recalled',
      versionIds: ['22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'],
    });
    const tail = prompt!.layers.find((l) => l.layer === 'tail')!;
    const tailText = prompt!.messages
      .slice(tail.start, tail.end)
      .map((m) => m.content)
      .join('\n');
    expect(tailText).toContain('The brand colour is teal with off-white (said by the person');
    expect(tailText).toContain('Often picks cyberpunk imagery (inferred, not said by the person');
    // Recalled memory is never in the stable prefix: that holds only the profile by version.
    const prefix = prompt!.messages[0].content;
    expect(prefix).not.toContain('teal');
    expect(ofType(turn, 'TurnCompleted')).toHaveLength(1);
  });

  it('recall failure: the turn proceeds without memory and says so in its step record', async () => {
    const recall = new RecordingRecall(() => Promise.reject(new Error('search index unavailable')));
    const { turn, step, prompt } = await run(recall, HARNESS_USER);

    expect(step.context?.memory).toEqual({ status: 'failed', versionIds: [], error: 'search index unavailable' });
    expect(prompt!.messages.some((m) => m.content.includes('Remembered about the person'))).toBe(false);
    expect(ofType(turn, 'TurnCompleted')).toHaveLength(1);
  });

  it('recall timeout: the step waits no longer than its deadline, goes on without memory and records the timeout', async () => {
    let aborted = false;
    const recall = new RecordingRecall(
      (q) =>
        new Promise((resolve) => {
          // Never answers in time; answers late once aborted, which must change nothing.
          q.signal?.addEventListener('abort', () => {
            aborted = true;
            setTimeout(() => resolve([memory()]), 20);
          });
        }),
    );
    const started = Date.now();
    const { turn, step, prompt } = await run(recall, HARNESS_USER, 50);

    expect(step.context?.memory).toEqual({ status: 'timeout', versionIds: [] });
    expect(aborted).toBe(true);
    expect(prompt!.messages.some((m) => m.content.includes('teal'))).toBe(false);
    expect(ofType(turn, 'TurnCompleted')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('recalls nothing for a message whose sender is unknown (no one else’s memory stands in)', async () => {
    const recall = new RecordingRecall(() => Promise.resolve([memory()]));
    const { step } = await run(recall, undefined);

    expect(recall.queries).toHaveLength(0);
    expect(step.context?.memory).toEqual({ status: 'disabled', versionIds: [] });
  });
});
