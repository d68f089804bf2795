import { rmSync } from 'node:fs';
import { runScenario } from './harness/run-scenario';
import { parseScenario } from './harness/scenario-file';
import { DrillApp } from './harness/drill-app';
import { advanceClock } from './harness/test-control';

// The harness itself, as the fault drills will use it: the app SIGKILLed mid-work and started
// again on the same data directory, the person's subscription resumed, the metrics still read one
// log; and the simulated clock (refused, not faked, with test control off).

describe('the drill harness', () => {
  it('a drill with the app SIGKILLed while a poster renders restarts on the same data directory and completes at the ideal figures, which `lomo metrics` prints too', async () => {
    const scenario = parseScenario(
      [
        'name: killed-mid-run',
        'title: The poster series with a crash while the first poster renders',
        'person:',
        '  - say: {text: Please make a series of three posters for the winter lantern walk, target: {new: posters}}',
        '  - wait: {for: cards, task: posters, count: 2}',
        '  - approve: {task: posters, card: {kind: REVIEW}}',
        '  - approve: {task: posters, card: {kind: BUDGET}}',
        '  - wait: {for: generating, task: posters}',
        '  - restart: kill',
        '  - wait: {for: done, task: posters, timeout: 180s}',
        'expect:',
        '  checklist_done: [posters]',
        '  min_artifacts: {posters: 5}',
      ].join('\n'),
      'killed-mid-run.yaml',
    );
    const result = await runScenario(scenario, { keepDataDir: true });
    try {
      expect({ error: result.error ?? null, unmet: result.unmet, offIdeal: result.offIdeal }).toEqual({
        error: null,
        unmet: [],
        offIdeal: [],
      });
      expect(result.passed).toBe(true);
      // One log across both processes: the three posters charged once each, as approved.
      expect(result.metrics!.figures.cost_spent_minor).toEqual(result.metrics!.figures.cost_approved_minor);
      // The operator's own tool on the same data directory prints the same figures.
      const stopped = new DrillApp({ dataDir: result.dataDir });
      const operator = await stopped.createToken('ops', 'sam', 'operator');
      const printed = await stopped.cli(['--json', '--token', operator, 'metrics', '--workspace', 'ws_drill']);
      expect({ code: printed.code, stderr: printed.code === 0 ? '' : printed.stderr }).toEqual({ code: 0, stderr: '' });
      const cli = JSON.parse(printed.stdout.trim()) as { figures: Record<string, unknown>; events: number };
      expect(cli.events).toBe(result.metrics!.events);
      expect(cli.figures).toMatchObject(result.metrics!.figures);
    } finally {
      if (result.dataDir !== undefined) rmSync(result.dataDir, { recursive: true, force: true });
    }
  }, 300_000);

  it('the metrics read the scenario’s truth: a message whose file names the wrong task is one misroute, with its finding, and the drill fails', async () => {
    const scenario = parseScenario(
      [
        'name: wrong-truth',
        'title: A deliberately wrong ground truth',
        'person:',
        '  - say: {text: Please make a 3d model of a ceramic teapot with a bamboo handle, target: {new: teapot}}',
        // Routing rightly opens a poster task; the file claims it was meant for the teapot.
        '  - say: {text: Please make a series of three posters for the brass lamp shop, target: {task: teapot}}',
      ].join('\n'),
      'wrong-truth.yaml',
    );
    const result = await runScenario(scenario);
    expect({ completed: result.completed, passed: result.passed, offIdeal: result.offIdeal }).toEqual({
      completed: true,
      passed: false,
      offIdeal: ['misroutes=1'],
    });
    expect(result.metrics!.findings).toEqual([
      expect.objectContaining({
        metric: 'misroutes',
        type: 'RoutingDecided',
        detail: expect.stringContaining('meant for "teapot"'),
      }),
    ]);
  }, 120_000);

  it("advanceClock moves the app's simulated clock; with test control off it fails instead of pretending", async () => {
    const app = new DrillApp();
    const off = new DrillApp({ env: { LOMO_TEST_CONTROL: 'off' } });
    try {
      await app.start();
      const operator = await app.createToken('ops', 'sam', 'operator');
      const state = async () =>
        (await (
          await fetch(`${app.url}/test-control`, { headers: { authorization: `Bearer ${operator}` } })
        ).json()) as {
          now: string;
          offsetMs: number;
        };
      const before = await state();
      const advanced = await advanceClock(app.url, operator, 3 * 86_400_000);
      const after = await state();
      expect(after.offsetMs - before.offsetMs).toBe(259_200_000);
      expect(Date.parse(advanced.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(259_200_000);
      await off.start();
      const offOperator = await off.createToken('ops', 'sam', 'operator');
      await expect(advanceClock(off.url, offOperator, 1000)).rejects.toThrow(/404: the app runs with test control off/);
    } finally {
      await app.dispose();
      await off.dispose();
    }
  }, 60_000);
});
