import { IDEAL_FIGURES } from '@lomo/operator';
import { runScenario, type ScenarioResult } from './harness/run-scenario';
import { loadScenarios } from './harness/scenario-file';

// Issue 21's first must-show, with the offline model: every scenario of test/drills/scenarios
// played by its scripted person against the built standalone app, scored from the event log.
// A scenario marked `known-gap` (a product gap its file names) is run, scored and reported, not
// gated (a gap can be intermittent: see flows-workflow-edit.yaml).

const scenarios = loadScenarios();
const ready = scenarios.filter((s) => s.status === 'ready');
const gaps = scenarios.filter((s) => s.status === 'known-gap');

/** What a failing drill shows in the assertion diff: why, and every finding from the log. */
const verdict = (r: ScenarioResult) => ({
  completed: r.completed,
  error: r.error ?? null,
  unmet: r.unmet,
  figures:
    r.metrics === undefined
      ? null
      : Object.fromEntries(
          Object.keys(IDEAL_FIGURES).map((k) => [k, r.metrics!.figures[k as keyof typeof IDEAL_FIGURES]]),
        ),
  findings: r.metrics?.findings ?? null,
});

describe('end-to-end drills with the offline model', () => {
  describe('every scenario completes with the offline model with every metric at its ideal value', () => {
    it.each(ready.map((s) => [s.name, s] as const))(
      '%s',
      async (_name, scenario) => {
        const result = await runScenario(scenario, { model: 'offline' });
        expect(verdict(result)).toEqual({
          completed: true,
          error: null,
          unmet: [],
          figures: { ...IDEAL_FIGURES },
          findings: [],
        });
        // The work was done and paid within what was approved, and approvals led on.
        expect(result.metrics!.deliveredArtifacts).toBeGreaterThan(0);
        expect(result.passed).toBe(true);
      },
      300_000,
    );
  });

  if (gaps.length > 0)
    describe('known gaps (each file says why): run and scored from the log, not gated', () => {
      it.each(gaps.map((s) => [s.name, s] as const))(
        '%s',
        async (_name, scenario) => {
          const result = await runScenario(scenario, { model: 'offline' });
          // A gap may be intermittent, so its verdict is reported rather than asserted either
          // way; what must hold is that the drill ran and its log was scored.
          expect(result.metrics?.events ?? 0).toBeGreaterThan(0);
          process.stderr.write(
            `known gap ${scenario.name}: ${result.passed ? 'passed this run (remove the mark once it always does)' : `failed: ${result.error ?? ''} ${result.offIdeal.join(', ')}`}\n`,
          );
        },
        300_000,
      );
    });
});
