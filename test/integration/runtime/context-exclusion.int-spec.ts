import type { BlobRef } from '@lomo/blobs';
import { streams } from '@lomo/contracts';
import { ScriptedModelProvider, match } from '@lomo/llm';
import { PromptArchive } from '@lomo/runtime';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { ofType, turnIdsOf } from './support/turn-events';

// Exclusion by recorded provenance (ContextExcluded on the task, written by a forgetting): the
// forgotten message, the reply and tool results of the step that consumed it, and the constraint
// read from it never reach a later prompt; nothing else of the task is lost.

const FORGETTING = '44444444-4444-4444-8444-444444444444';

describe('context exclusion after a forgetting', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'context-exclusion' })));
  afterEach(async () => harness.close());

  it('a forgotten message alone is replaced by a placeholder, and the constraint read from it is gone from the tail', async () => {
    const { taskId } = await harness.createTask('Design a poster series for the spring launch');
    const model = new ScriptedModelProvider([
      { expect: match.lastUserMessageContains('spring launch'), reply: { text: 'Starting the spring series.' } },
      { expect: match.lastUserMessageContains('cobalt'), reply: { text: 'Noted.' } },
      { expect: match.lastUserMessageContains('third poster'), reply: { text: 'Working on the third poster.' } },
    ]);
    const { worker } = harness.worker('worker-a', model);
    await worker.wake({ taskId, reason: 'message' });
    const forgotten = await harness.deliver(taskId, 'The background is cobalt blue.');
    await worker.wake({ taskId, reason: 'message' });
    const before = ofType(await harness.read(streams.task(taskId)), 'ConstraintsNoted');
    expect(JSON.stringify(before)).toMatch(/cobalt/);
    await harness.decideOnTask(taskId, [
      { type: 'ExcludeContext', forgettingId: FORGETTING, messageIds: [forgotten], steps: [] },
    ]);
    await harness.deliver(taskId, 'Now the third poster please.');
    await worker.wake({ taskId, reason: 'message' });
    const third = (await turnIdsOf(harness, taskId))[2];
    const [step] = ofType<{ promptRef: BlobRef }>(await harness.read(streams.turn(third)), 'ModelStepCommitted');
    // The prompt as the model was sent it (a stored prompt may be a delta on the one before).
    const prompt = await new PromptArchive(harness.blobs).load(step.promptRef);
    const shown = JSON.stringify(prompt!.messages);
    expect(shown).not.toMatch(/cobalt/i);
    expect(shown).toContain('(A message the person asked to forget.)');
    expect(shown).toContain('Starting the spring series.');
    expect(shown).toContain('Noted.');
  });

  it('later prompts show neither the forgotten message, nor the reply that relied on it, nor its constraint', async () => {
    const { taskId } = await harness.createTask('Design a poster series for the spring launch');
    const model = new ScriptedModelProvider([
      { expect: match.lastUserMessageContains('spring launch'), reply: { text: 'Starting the spring series.' } },
      {
        expect: match.lastUserMessageContains('cobalt'),
        reply: { text: 'Noted: everything in cobalt blue, as your brand colour.' },
      },
      { expect: match.lastUserMessageContains('third poster'), reply: { text: 'Working on the third poster.' } },
    ]);
    const { worker } = harness.worker('worker-a', model);
    await worker.wake({ taskId, reason: 'message' });
    const forgotten = await harness.deliver(taskId, 'The background is cobalt blue, our brand colour.');
    await worker.wake({ taskId, reason: 'message' });
    const turns = await turnIdsOf(harness, taskId);
    expect(turns).toHaveLength(2);

    // What a forgetting's cascade writes for this task: the message and the step that consumed it.
    await harness.decideOnTask(taskId, [
      {
        type: 'ExcludeContext',
        forgettingId: FORGETTING,
        messageIds: [forgotten],
        steps: [{ turnId: turns[1], step: 1 }],
      },
    ]);
    expect(ofType(await harness.read(streams.task(taskId)), 'ContextExcluded')).toHaveLength(1);

    await harness.deliver(taskId, 'Now the third poster please.');
    await worker.wake({ taskId, reason: 'message' });
    const third = (await turnIdsOf(harness, taskId))[2];
    const [step] = ofType<{ promptRef: BlobRef }>(await harness.read(streams.turn(third)), 'ModelStepCommitted');
    // The prompt as the model was sent it (a stored prompt may be a delta on the one before).
    const prompt = await new PromptArchive(harness.blobs).load(step.promptRef);
    const shown = prompt!.messages.map((m) => m.content).join('\n');

    expect(shown).not.toMatch(/cobalt/i);
    expect(shown).toContain(
      '(The agent’s reply and tool results here are left out: they relied on something the person asked to forget.)',
    );
    // The rest of the task is still there.
    expect(shown).toContain('Starting the spring series.');
    expect(shown).toContain('Design a poster series for the spring launch');
  });
});
