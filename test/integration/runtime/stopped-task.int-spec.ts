import { makeCallId, streams } from '@lomo/contracts';
import { turnDecider } from '@lomo/domain';
import { ScriptedModelProvider } from '@lomo/llm';
import { TurnView, interruptTask } from '@lomo/runtime';
import { HARNESS_USER, RuntimeHarness, ScriptedFaults } from '@lomo/runtime/testing';
import { waitFor } from '@lomo/bus/testing';
import { settlesWithin } from './support/deferred';
import { RefusalRecorder } from './support/refusal-recorder';
import { spawnTaskTool, spawnedTaskIdFor } from './support/spawn-task-tool';
import { ofType, turnIdsOf, typesOf } from './support/turn-events';

const user = { kind: 'user' as const, userId: HARNESS_USER };

describe('a stopped task', () => {
  let harness: RuntimeHarness;
  beforeEach(
    async () => (harness = await RuntimeHarness.open({ label: 'stop', tools: ({ store }) => [spawnTaskTool(store)] })),
  );
  afterEach(async () => harness.close());

  it('aborts the in-flight model call of the lease holder through a cancel on the wake-up topic', async () => {
    const { taskId, itemId } = await harness.createTask('write a long essay');
    const model = new ScriptedModelProvider([{ label: 'thinking', hangUntilAborted: true }]);
    // The executor reads the bus through its own connection, as a separate process does.
    const executor = harness.worker('executor-1', model);
    await harness.consumeWakeUps(executor);

    const run = executor.worker.wake({ taskId, reason: 'message' });
    await waitFor(() => model.calls.length === 1, 'the model call in flight', 5_000);
    const stopped = await interruptTask(harness.commandDeps(), 'stop', { taskId, by: user, reason: 'changed my mind' });
    expect(await settlesWithin(run, 3_000)).toBe(true);

    expect(model.callsFor('thinking')[0].outcome).toBe('aborted');
    const turnId = stopped.cancelledTurnId!;
    expect(typesOf(await harness.read(streams.turn(turnId)))).toEqual(['TurnStarted', 'TurnLeased', 'TurnCancelled']);
    const task = await harness.read(streams.task(taskId));
    expect(typesOf(task).slice(-3)).toEqual(['InboxItemsReleased', 'TurnClosed', 'TaskStopped']);
    expect(ofType(task, 'TaskStopped')).toEqual([{ by: user, reason: 'changed my mind', cancelledTurnId: turnId }]);
    expect(ofType(task, 'InboxItemsReleased')).toEqual([
      { turnId, step: 1, itemIds: [itemId], reason: 'turn_cancelled' },
    ]);
    expect(harness.logs.lines).toContainEqual(
      expect.objectContaining({ msg: expect.stringContaining('cancel received'), turnId }),
    );

    // A late wake does not restart it.
    await executor.worker.wake({ taskId, reason: 'message' });
    expect(await turnIdsOf(harness, taskId)).toEqual([turnId]);
  });

  it('its cancelled turn can neither start a tool call nor create a task', async () => {
    const { taskId } = await harness.createTask('split this into sub-tasks');
    const model = new ScriptedModelProvider([
      { label: 'delegate', reply: { toolCalls: [{ name: 'task.spawn', arguments: { goal: 'research' } }] } },
    ]);
    const faults = new ScriptedFaults();
    const committed = faults.hang('after-step-committed');
    const recorder = new RefusalRecorder();
    const { worker } = harness.worker('worker-a', model, { faults, wrapStore: recorder.wrap });

    const run = worker.wake({ taskId, reason: 'message' });
    const { turnId } = await committed.reached;
    await interruptTask(harness.commandDeps(), 'stop', { taskId, by: user });
    committed.release();
    await run;

    const callId = makeCallId(turnId!, 1, 0);
    const turn = await TurnView.load(harness.store, turnId!);
    expect(turn.state.status).toBe('cancelled');
    expect(typesOf(await harness.read(streams.turn(turnId!)))).toEqual([
      'TurnStarted',
      'TurnLeased',
      'ModelStepCommitted',
      'TurnCancelled',
    ]);
    expect(recorder.refusals).toHaveLength(1);
    expect(() => turnDecider.decide({ type: 'StartToolCall', generation: 1, callId, attempt: 1 }, turn.state)).toThrow(
      expect.objectContaining({ code: 'TURN_CLOSED' }),
    );
    expect(await harness.read(streams.task(spawnedTaskIdFor(callId)))).toEqual([]);
  });

  it('records an async tool’s completion that arrives after the stop, without waking the task', async () => {
    const { taskId } = await harness.createTask('export my essay');
    const model = new ScriptedModelProvider([
      {
        label: 'export',
        reply: { toolCalls: [{ name: 'export.document', arguments: { title: 'Essay', content: '# Essay' } }] },
      },
    ]);
    const executor = harness.worker('worker-a', model);
    await harness.consumeWakeUps(executor);

    await executor.worker.wake({ taskId, reason: 'message' });
    const [turnId] = await turnIdsOf(harness, taskId);
    const callId = makeCallId(turnId, 1, 0);
    expect(typesOf(await harness.read(streams.turn(turnId))).at(-1)).toBe('TurnWaiting');

    await interruptTask(harness.commandDeps(), 'stop', { taskId, by: user });
    const taskAfterStop = typesOf(await harness.read(streams.task(taskId)));
    harness.clock.advance(60_000);
    await harness.exports.idle();
    // The runner's wake-up goes through the bus; wait until the executor's group has consumed it.
    await waitFor(
      async () =>
        (await harness.bus.committedOffsets('lomo-executor', 'lomo.wakeups')).reduce(
          (n, p) => n + (p.offset ?? 0),
          0,
        ) >= 2,
      'the wake-up consumed',
      5_000,
    );
    await executor.worker.idle();

    const turn = await harness.read(streams.turn(turnId));
    expect(typesOf(turn).slice(-2)).toEqual(['TurnCancelled', 'ToolCallCompleted']);
    expect(ofType(turn, 'ToolCallCompleted')).toEqual([expect.objectContaining({ callId, status: 'ok' })]);
    expect(typesOf(await harness.read(streams.task(taskId)))).toEqual(taskAfterStop);
    expect(await turnIdsOf(harness, taskId)).toEqual([turnId]);
  });
});
