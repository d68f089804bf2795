import { streams } from '@lomo/contracts';
import { waitFor } from '@lomo/bus/testing';
import { ScriptedModelProvider, match } from '@lomo/llm';
import { interruptTask, resumeTask } from '@lomo/runtime';
import { HARNESS_USER, RuntimeHarness } from '@lomo/runtime/testing';
import { deferred } from './support/deferred';
import { ofType, turnIdsOf, typesOf } from './support/turn-events';

const user = { kind: 'user' as const, userId: HARNESS_USER };
const mentions = (text: string) => (request: { messages: readonly { content: string }[] }) =>
  request.messages.some((m) => m.content.includes(text));

describe('inbox at step boundaries', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'inbox' })));
  afterEach(async () => harness.close());

  it('a message delivered during a model call is not read by that step; the next step claims and records it', async () => {
    const { taskId, itemId: first } = await harness.createTask('first message');
    const inFlight = deferred();
    const answer = deferred();
    const model = new ScriptedModelProvider(
      [
        {
          label: 'step 1',
          delayMs: 1,
          expect: match.lastUserMessageContains('first message'),
          reply: { text: 'Noted the first.' },
        },
        {
          label: 'step 2',
          expect: match.lastUserMessageContains('second message'),
          reply: { text: 'And the second.' },
        },
      ],
      {
        // The model "thinks" until the test lets it answer.
        sleep: async () => {
          inFlight.resolve();
          await answer.promise;
        },
      },
    );
    const { worker } = harness.worker('worker-a', model);

    const run = worker.wake({ taskId, reason: 'message' });
    await inFlight.promise;
    const second = await harness.deliver(taskId, 'second message');
    await expect(
      harness.decideOnTask(taskId, [{ type: 'WithdrawInboxItem', itemId: first, by: HARNESS_USER }]),
    ).rejects.toMatchObject({ code: 'INBOX_ITEM_CLAIMED' });
    answer.resolve();
    await run;

    const [turnId] = await turnIdsOf(harness, taskId);
    const task = await harness.read(streams.task(taskId));
    expect(ofType(task, 'InboxItemsClaimed')).toEqual([
      { turnId, step: 1, itemIds: [first] },
      { turnId, step: 2, itemIds: [second] },
    ]);
    const turn = await harness.read(streams.turn(turnId));
    expect(ofType<{ consumedItemIds: string[] }>(turn, 'ModelStepCommitted').map((s) => s.consumedItemIds)).toEqual([
      [first],
      [second],
    ]);
    expect(mentions('second message')(model.callsFor('step 1')[0].request)).toBe(false);
    expect(typesOf(turn).at(-1)).toBe('TurnCompleted');
    model.assertAllConsumed();
  });

  it('the claim of a step cancelled by a pause is released, and the message is handled after resume', async () => {
    const { taskId, itemId } = await harness.createTask('please summarise');
    const model = new ScriptedModelProvider([
      { label: 'interrupted', hangUntilAborted: true },
      { label: 'after resume', expect: match.lastUserMessageContains('please summarise'), reply: { text: 'Summary.' } },
    ]);
    const executor = harness.worker('worker-a', model);
    await harness.consumeWakeUps(executor);

    const run = executor.worker.wake({ taskId, reason: 'message' });
    await waitFor(() => model.calls.length === 1, 'the model call in flight', 5_000);
    const paused = await interruptTask(harness.commandDeps(), 'pause', { taskId, by: user });
    await run;

    expect(model.callsFor('interrupted')[0].outcome).toBe('aborted');
    const [firstTurn] = await turnIdsOf(harness, taskId);
    expect(paused.cancelledTurnId).toBe(firstTurn);
    expect(typesOf(await harness.read(streams.turn(firstTurn)))).toEqual([
      'TurnStarted',
      'TurnLeased',
      'TurnCancelled',
    ]);
    const afterPause = await harness.read(streams.task(taskId));
    expect(typesOf(afterPause).slice(-3)).toEqual(['InboxItemsReleased', 'TurnClosed', 'TaskPaused']);
    expect(ofType(afterPause, 'InboxItemsReleased')).toEqual([
      { turnId: firstTurn, step: 1, itemIds: [itemId], reason: 'turn_cancelled' },
    ]);

    await resumeTask(harness.commandDeps(), { taskId, by: user });
    await waitFor(async () => (await turnIdsOf(harness, taskId)).length === 2, 'a second turn', 5_000);
    await executor.worker.idle();
    const secondTurn = (await turnIdsOf(harness, taskId))[1];
    const turn = await harness.read(streams.turn(secondTurn));
    expect(ofType(turn, 'ModelStepCommitted')).toEqual([
      expect.objectContaining({ step: 1, consumedItemIds: [itemId] }),
    ]);
    expect(typesOf(turn).at(-1)).toBe('TurnCompleted');
    model.assertAllConsumed();
  });
});
