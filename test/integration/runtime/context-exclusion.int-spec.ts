import { streams } from '@lomo/contracts';
import { ScriptedModelProvider, match } from '@lomo/llm';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { firstPromptOfTurn, ofType, turnIdsOf } from './support/turn-events';

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
    const shown = JSON.stringify(await firstPromptOfTurn(harness, taskId, 2));
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
    const shown = (await firstPromptOfTurn(harness, taskId, 2)).map((m) => m.content).join('\n');

    expect(shown).not.toMatch(/cobalt/i);
    expect(shown).toContain(
      '(The agent’s reply and tool results here are left out: they relied on something the person asked to forget.)',
    );
    // The rest of the task is still there.
    expect(shown).toContain('Starting the spring series.');
    expect(shown).toContain('Design a poster series for the spring launch');
  });
});
