import { streams } from '@lomo/contracts';
import { ScriptedModelProvider } from '@lomo/llm';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { ofType, typesOf } from './support/turn-events';

// The runtime's continuation decision through the real worker on SQLite: after every completed
// turn of a persistent task a ContinuationDecided event says whether the runtime goes on by
// itself, and the next turn is opened from it, never from how the model ended its reply.

type Decided = {
  decision: string;
  reason: string;
  progress: string[];
  autoTurns: number;
  turnsWithoutProgress: number;
};

describe('the continuation decision after each turn', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'continuation' })));
  afterEach(async () => harness.close());

  /** A model that ends every turn with a summary (finish "stop"), as after each stage in article §8. */
  const stopsEveryTurn = (turns: number) =>
    new ScriptedModelProvider(
      Array.from({ length: turns }, (_, i) => ({ label: `turn ${i + 1}`, reply: { text: `Stage ${i + 1} planned.` } })),
    );

  it('with items left the runtime opens the next turn itself; a loop without progress stops after the configured turns, with the reason recorded', async () => {
    const { taskId } = await harness.createTask('Make a short video about the harbour', 'persistent');
    await harness.decideOnTask(taskId, [
      {
        type: 'PlanChecklist',
        items: [
          { itemId: 'script', title: 'Script', dependsOn: [] },
          { itemId: 'storyboard', title: 'Storyboard', dependsOn: ['script'] },
        ],
      },
    ]);
    const model = stopsEveryTurn(3);
    const { worker } = harness.worker('worker-a', model);

    await worker.wake({ taskId, reason: 'message' });

    const task = await harness.read(streams.task(taskId));
    expect(ofType<{ reason: string }>(task, 'TurnOpened').map((t) => t.reason)).toEqual([
      'message',
      'continuation',
      'continuation',
    ]);
    const decided = ofType<Decided>(task, 'ContinuationDecided');
    expect(
      decided.map(({ decision, reason, progress, autoTurns, turnsWithoutProgress }) => ({
        decision,
        reason,
        progress,
        autoTurns,
        turnsWithoutProgress,
      })),
    ).toEqual([
      // The person's message was consumed: progress; nobody typed "continue".
      {
        decision: 'continue',
        reason: 'pending_items',
        progress: ['person_input'],
        autoTurns: 1,
        turnsWithoutProgress: 0,
      },
      { decision: 'continue', reason: 'pending_items', progress: [], autoTurns: 2, turnsWithoutProgress: 1 },
      // Rewording the plan is not progress: the runtime stops going on by itself and says why.
      { decision: 'stop', reason: 'no_progress', progress: [], autoTurns: 2, turnsWithoutProgress: 2 },
    ]);
    // Each decision is appended with its turn's close, right after it.
    const closes = task.flatMap((e, i) => (e.type === 'TurnClosed' ? [task[i + 1]?.type] : []));
    expect(closes).toEqual(['ContinuationDecided', 'ContinuationDecided', 'ContinuationDecided']);
    model.assertAllConsumed();
    expect(model.calls).toHaveLength(3);
  });

  it('a task without a checklist waits for the person after its reply: no turn of its own', async () => {
    const { taskId } = await harness.createTask('What sizes do posters come in?', 'persistent');
    const model = stopsEveryTurn(1);
    const { worker } = harness.worker('worker-a', model);

    await worker.wake({ taskId, reason: 'message' });

    const task = await harness.read(streams.task(taskId));
    expect(typesOf(task).filter((t) => t === 'TurnOpened')).toHaveLength(1);
    expect(ofType<Decided>(task, 'ContinuationDecided')).toMatchObject([
      { decision: 'await_person', reason: 'no_plan', progress: ['person_input'] },
    ]);
    model.assertAllConsumed();
  });

  it('a finished checklist ends the run: the decision says so and no turn follows', async () => {
    const { taskId } = await harness.createTask('One poster of the harbour', 'persistent');
    await harness.decideOnTask(taskId, [
      { type: 'PlanChecklist', items: [{ itemId: 'poster', title: 'Poster', dependsOn: [] }] },
      { type: 'ChangeChecklistItem', itemId: 'poster', status: 'done' },
    ]);
    const model = stopsEveryTurn(1);
    const { worker } = harness.worker('worker-a', model);

    await worker.wake({ taskId, reason: 'message' });

    const task = await harness.read(streams.task(taskId));
    expect(ofType<Decided>(task, 'ContinuationDecided')).toMatchObject([
      { decision: 'finish', reason: 'checklist_complete' },
    ]);
    expect(typesOf(task).filter((t) => t === 'TurnOpened')).toHaveLength(1);
  });
});
