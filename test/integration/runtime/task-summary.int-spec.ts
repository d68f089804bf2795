import { streams } from '@lomo/contracts';
import { ScriptedModelProvider } from '@lomo/llm';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { ofType, turnIdsOf, typesOf } from './support/turn-events';

describe('the routing summary after each turn', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'task-summary' })));
  afterEach(async () => harness.close());

  it('follows each closed turn with its summary, and writes nothing when a turn leaves it unchanged', async () => {
    const { taskId } = await harness.createTask('Design a poster for the jazz night. Blue and gold.');
    const model = new ScriptedModelProvider([
      { label: 'first', reply: { text: 'A first draft in blue.' } },
      { label: 'same again', reply: { text: 'A first draft in blue.' } },
      { label: 'changed', reply: { text: 'Gold lettering added.' } },
    ]);
    const { worker } = harness.worker('worker-a', model);

    await worker.wake({ taskId, reason: 'message' });
    await harness.deliver(taskId, 'looks good');
    await worker.wake({ taskId, reason: 'message' });
    await harness.deliver(taskId, 'add gold lettering');
    await worker.wake({ taskId, reason: 'message' });

    const task = await harness.read(streams.task(taskId));
    const turns = await turnIdsOf(harness, taskId);
    expect(turns).toHaveLength(3);
    expect(ofType(task, 'TaskSummaryUpdated')).toEqual([
      {
        summary: 'Design a poster for the jazz night — A first draft in blue.',
        turnId: turns[0],
        by: { kind: 'system', component: 'executor' },
      },
      {
        summary: 'Design a poster for the jazz night — Gold lettering added.',
        turnId: turns[2],
        by: { kind: 'system', component: 'executor' },
      },
    ]);
    // Each summary comes after its turn's close, never before it.
    const types = typesOf(task);
    const closeOf = (turnId: string) =>
      task.findIndex((e) => e.type === 'TurnClosed' && (e.data as { turnId: string }).turnId === turnId);
    const summaryOf = (turnId: string) =>
      task.findIndex((e) => e.type === 'TaskSummaryUpdated' && (e.data as { turnId: string }).turnId === turnId);
    expect(summaryOf(turns[0])).toBeGreaterThan(closeOf(turns[0]));
    expect(summaryOf(turns[2])).toBeGreaterThan(closeOf(turns[2]));
    expect(types.filter((t) => t === 'TurnClosed')).toHaveLength(3);
    model.assertAllConsumed();
  });
});
