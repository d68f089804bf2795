import { silentLogger } from '@lomo/observability';
import { resolveRuntimeOptions } from '@lomo/runtime';
import { ToolRegistry } from '@lomo/tools';
import { InspectionWorld } from '../testing/inspection-world';
import { tellTaskStory } from '../testing/inspection-story';
import { operatorCaller } from '../testing/rebuild-world';
import { replayTurn } from './replay-turn';

describe('a replayed call that started a paid job', () => {
  let world: InspectionWorld;
  beforeEach(() => (world = InspectionWorld.open()));
  afterEach(async () => world.close());

  it('reuses the recorded completion with the job’s outcome and money, starting nothing', async () => {
    // Given turn 1 of the story: image.generate started job J (charged 4.00 USD), completed with {jobId}
    const story = await tellTaskStory(world);
    const head = await world.events.headPosition();

    // When it is replayed with the recorded replies
    const report = await replayTurn(
      world.sources,
      operatorCaller,
      story.turns[0],
      { model: 'recorded' },
      {
        tools: new ToolRegistry([]),
        options: resolveRuntimeOptions({ workerId: 'replay' }),
        logger: silentLogger,
      },
    );

    // Then the call's recorded outcome is reused, with the job's
    expect(report.steps[0].toolCalls).toEqual([
      {
        callId: story.callId,
        tool: 'image.generate',
        recorded: { prompt: 'a red fox' },
        replayed: { prompt: 'a red fox' },
        status: 'reused',
        outcome: {
          status: 'ok',
          result: { jobId: story.jobId },
          job: { jobId: story.jobId, status: expect.any(String), chargedMinor: 400, refundedMinor: 0, currency: 'USD' },
        },
      },
    ]);
    expect(await world.events.headPosition()).toBe(head);
  });
});
