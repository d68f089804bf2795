import { makeCallId, streams, type TestMutation } from '@lomo/contracts';
import { ScriptedModelProvider } from '@lomo/llm';
import { HARNESS_WORKSPACE } from '@lomo/runtime/testing';
import { generationJobId } from '../job/job-ids';
import { GenerationHarness } from '../testing';

// The drills' no_budget_check mutation (libs/platform/src/test-control/README.md) on the real
// generation service: a paid call nobody approved, on an account with no budget, is reserved and
// charged instead of asking the person (what cost_over_budget counts).

const posterCall = {
  label: 'poster',
  reply: { toolCalls: [{ name: 'image.generate', arguments: { prompt: 'A poster of the harbour at dawn' } }] },
};
const types = (events: ReadonlyArray<{ type: string }>) => events.map((e) => e.type);

describe('no_budget_check (generation service)', () => {
  let h: GenerationHarness;
  afterEach(async () => h?.close());

  async function orderPoster(mutations: TestMutation[]) {
    h = await GenerationHarness.open({
      label: 'budget-mutation',
      upstream: { config: { latencyMs: 2_000, progressTicks: 1 } },
      testControl: { mutation: (name) => mutations.includes(name) },
    });
    const { taskId } = await h.runtime.createTask('make a poster of the harbour', 'persistent');
    const model = new ScriptedModelProvider([posterCall, { label: 'answer', reply: { text: 'Here it is.' } }]);
    const executor = h.runtime.worker('executor-1', model);
    await h.runtime.consumeWakeUps(executor);
    await executor.worker.wake({ taskId, reason: 'message' });
    await h.settle();
    const turnId = (await h.read(streams.task(taskId)))
      .filter((e) => e.type === 'TurnOpened')
      .map((e) => (e.data as { turnId: string }).turnId)[0];
    const jobId = generationJobId(HARNESS_WORKSPACE, makeCallId(turnId, 1, 0));
    for (let t = 0; t < 4_000; t += 1_000) await h.advance(1_000);
    const ledger = types(
      (await h.accountEvents(HARNESS_WORKSPACE)).filter((e) => (e.data as { jobId?: string }).jobId === jobId),
    );
    const cards = (await h.read(streams.task(taskId))).filter((e) => e.type === 'CheckpointOpened');
    return { ledger, cards, job: types(await h.read(streams.generation(jobId))) };
  }

  it('off: the call asks the person and nothing is reserved or charged', async () => {
    const { ledger, cards, job } = await orderPoster([]);
    expect(ledger).toEqual(['QuoteIssued']);
    expect(cards).toHaveLength(1);
    expect(job).toEqual(['GenerationRequested', 'GenerationApprovalRequested']);
  });

  it('on: reserved as plan-approved and charged with no approval and no budget behind it', async () => {
    const { ledger, cards, job } = await orderPoster(['no_budget_check']);
    expect(ledger).toEqual(expect.arrayContaining(['QuoteIssued', 'FundsReserved', 'JobCharged']));
    expect(cards).toHaveLength(0);
    expect(job).toContain('GenerationSubmitted');
  });
});
