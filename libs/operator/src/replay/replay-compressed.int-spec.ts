import { streams } from '@lomo/contracts';
import { resolveRuntimeOptions } from '@lomo/runtime';
import { operatorCaller } from '../testing/rebuild-world';
import { recordScenario, type RecordedScenario } from '../testing/replay-scenario';
import { replayTurn } from './replay-turn';
import type { ReplayDeps } from './replay-runtime-deps';

// A small context window: the recording worker summarized its history into segments (appended to
// the task stream, their texts in the BlobStore) before some of its steps.
const WINDOW = { contextTokens: 3_000, historyShare: 0.05 };

describe('replaying turns whose history the runtime compressed', () => {
  let scenario: RecordedScenario;
  beforeAll(async () => (scenario = await recordScenario('replay-compressed', WINDOW)));
  afterAll(async () => scenario.close());

  const replay = (turn: number, deps: Partial<ReplayDeps> = {}) =>
    replayTurn(
      { events: scenario.harness.store, blobs: scenario.harness.blobs },
      operatorCaller,
      scenario.turns[turn],
      { model: 'recorded' },
      { ...scenario.worker.deps, ...deps },
    );

  it('reproduces every prompt: the segments written before a step are in its copy, so nothing is summarized again', async () => {
    // Given segments the worker appended while it ran
    const task = await scenario.harness.read(streams.task(scenario.taskId));
    expect(task.filter((e) => e.type === 'HistorySegmentAppended').length).toBeGreaterThan(1);

    // When both turns are replayed
    const reports = [await replay(0), await replay(1)];

    // Then every step's prompt is the archived one
    expect(reports.map((r) => r.steps.map((s) => s.context?.status))).toEqual([
      ['reproduced', 'reproduced', 'reproduced'],
      ['reproduced', 'reproduced'],
    ]);
  });
});

describe('a replay whose assembler summarizes history the recording did not', () => {
  let scenario: RecordedScenario;
  beforeAll(async () => (scenario = await recordScenario('replay-summarizes')));
  afterAll(async () => scenario.close());

  it('summarizes on the copy: the drift shows in the history, the real store and blobs stay as they were', async () => {
    // Given a recording with the default window (nothing summarized), and spies on the real writes
    const { harness, worker } = scenario;
    const writes = [jest.spyOn(harness.store, 'append'), jest.spyOn(harness.blobs, 'put')];
    const head = await harness.store.headPosition();

    // When its second turn is replayed with a window so small that history must be summarized
    const options = resolveRuntimeOptions({ ...worker.deps.options, ...WINDOW });
    const report = await replayTurn(
      { events: harness.store, blobs: harness.blobs },
      operatorCaller,
      scenario.turns[1],
      { model: 'recorded' },
      { ...worker.deps, options },
    );

    // Then the replay's own summary changed what the step sees, and nothing real was written
    expect(report.steps[0].context).toMatchObject({ status: 'context_drift', firstDifferingLayer: 'history' });
    for (const write of writes) expect(write).not.toHaveBeenCalled();
    expect(await harness.store.headPosition()).toBe(head);
    for (const write of writes) write.mockRestore();
  });
});
