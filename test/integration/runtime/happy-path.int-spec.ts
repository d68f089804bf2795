import type { BlobRef } from '@lomo/blobs';
import { streams } from '@lomo/contracts';
import { ScriptedModelProvider, match } from '@lomo/llm';
import { PromptArchive } from '@lomo/runtime';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { ofType, turnIdsOf, typesOf } from './support/turn-events';

describe('a turn from message to completion', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'happy-path' })));
  afterEach(async () => harness.close());

  it('claims the message, calls a tool, commits each step with its archived prompt and completes a lightweight task', async () => {
    const { taskId, itemId } = await harness.createTask('Make a note called groceries', 'lightweight');
    const model = new ScriptedModelProvider([
      {
        label: 'decide',
        expect: match.lastUserMessageContains('groceries'),
        reply: { text: 'Creating it.', toolCalls: [{ name: 'notes.create', arguments: { title: 'groceries' } }] },
      },
      {
        label: 'answer',
        expect: match.where('has a tool result', (r) => r.messages.some((m) => m.role === 'tool')),
        reply: { text: 'Done.' },
      },
    ]);
    const { worker } = harness.worker('worker-a', model);

    await worker.wake({ taskId, reason: 'message' });

    const [turnId] = await turnIdsOf(harness, taskId);
    const turn = await harness.read(streams.turn(turnId));
    expect(typesOf(turn)).toEqual([
      'TurnStarted',
      'TurnLeased',
      'ModelStepCommitted',
      'ToolCallStarted',
      'ToolCallCompleted',
      'ModelStepCommitted',
      'TurnCompleted',
    ]);
    const steps = ofType<{ consumedItemIds: string[]; promptRef: BlobRef; context?: unknown }>(
      turn,
      'ModelStepCommitted',
    );
    expect(steps.map((s) => s.consumedItemIds)).toEqual([[itemId], []]);
    const prompt = await new PromptArchive(harness.blobs).load(steps[1].promptRef);
    // The layers: the prefix (rules), the turn's start marker and step 1 in full, the task's state, no new input.
    expect(prompt?.messages.map((m) => m.role)).toEqual(['system', 'system', 'user', 'assistant', 'tool', 'system']);
    expect(prompt?.layers.map((l) => l.layer)).toEqual(['prefix', 'history', 'recent', 'tail', 'input']);
    expect(steps[1].context).toMatchObject({ prefix: { changed: null }, tools: { strategy: 'dynamic' } });
    expect(typesOf(await harness.read(streams.task(taskId)))).toEqual([
      'TaskCreated',
      'MessageDeliveredToInbox',
      'TurnOpened',
      'InboxItemsClaimed',
      'TurnClosed',
      'TaskCompleted',
      // After the close, as its own append (libs/runtime/src/summary/summarize-after-turn.ts).
      'TaskSummaryUpdated',
    ]);
    expect(ofType(await harness.read(streams.task(taskId)), 'TaskSummaryUpdated')).toEqual([
      { summary: 'Make a note called groceries — Done.', turnId, by: { kind: 'system', component: 'executor' } },
    ]);
    expect(await harness.notes.list('ws_runtime', { limit: 10 })).toHaveLength(1);
    model.assertAllConsumed();
  });
});
