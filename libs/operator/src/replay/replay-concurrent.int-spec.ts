import { streams } from '@lomo/contracts';
import { ScriptedModelProvider, type ModelProvider } from '@lomo/llm';
import { HARNESS_USER, RuntimeHarness } from '@lomo/runtime/testing';
import { operatorCaller } from '../testing/rebuild-world';
import { RECORDED_SCRIPT } from '../testing/replay-scenario';
import { replayTurn } from './replay-turn';

describe('a person’s write while a step’s model call was in flight', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'replay-concurrent' })));
  afterEach(async () => harness.close());

  it('is left out of that step’s rebuilt state (and listed), and is in the next step’s', async () => {
    // Given a turn during whose second model call the person set a brief: step 2's prompt was
    // built before it, step 3's after it
    const { taskId } = await harness.createTask('Make a note called groceries', 'persistent', HARNESS_USER);
    const scripted = new ScriptedModelProvider(
      RECORDED_SCRIPT.groceries.map((r) => ({
        reply: { text: r.text, toolCalls: 'toolCalls' in r ? r.toolCalls.map((c) => ({ ...c })) : [] },
      })),
    );
    let calls = 0;
    const model: ModelProvider = {
      name: 'slow',
      complete: async (request) => {
        calls += 1;
        if (calls === 2)
          await harness.decideOnTask(taskId, [
            { type: 'UpdateBrief', brief: 'Notes only, never lists.', by: { kind: 'user', userId: HARNESS_USER } },
          ]);
        return scripted.complete(request);
      },
    };
    const { worker, deps } = harness.worker('worker-a', model);
    await worker.wake({ taskId, reason: 'message' });
    const turnId = (
      (await harness.read(streams.task(taskId))).find((e) => e.type === 'TurnOpened')!.data as {
        turnId: string;
      }
    ).turnId;

    // When the turn is replayed
    const report = await replayTurn(
      { events: harness.store, blobs: harness.blobs },
      operatorCaller,
      turnId,
      { model: 'recorded' },
      deps,
    );

    // Then every step is reproduced, step 2 naming the write it left out
    expect(report.steps.map((s) => s.context?.status)).toEqual(['reproduced', 'reproduced', 'reproduced']);
    expect(report.steps.map((s) => s.concurrent.map((c) => c.type))).toEqual([[], ['BriefUpdated'], []]);
  });
});
