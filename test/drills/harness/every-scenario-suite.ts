import { IDEAL_FIGURES } from '@lomo/operator';
import { runScenario, type DrillModel } from './run-scenario';
import { loadScenarios } from './scenario-file';
import { verdict } from './drill-verdict';

// Issue 21's first must-show, shared by the models the drills gate on (every-scenario*.drill-spec.ts):
// every scenario of test/drills/scenarios played by its scripted person against the built
// standalone app, scored from the event log. A scenario marked `known-gap` (a product gap its
// file names) is run, scored and reported, not gated (a gap can be intermittent).

/** The jest suite "every scenario completes with the <model> model with every metric at its ideal value". */
export function describeEveryScenario(model: DrillModel, label: string): void {
  const scenarios = loadScenarios();
  const ready = scenarios.filter((s) => s.status === 'ready');
  const gaps = scenarios.filter((s) => s.status === 'known-gap');

  describe(`end-to-end drills with the ${label}`, () => {
    describe(`every scenario completes with the ${label} with every metric at its ideal value`, () => {
      it.each(ready.map((s) => [s.name, s] as const))(
        '%s',
        async (_name, scenario) => {
          const result = await runScenario(scenario, { model });
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
            const result = await runScenario(scenario, { model });
            // A gap may be intermittent, so its verdict is reported rather than asserted either
            // way; what must hold is that the drill ran and its log was scored.
            expect(result.metrics?.events ?? 0).toBeGreaterThan(0);
            process.stderr.write(
              `known gap ${scenario.name} (${model}): ${result.passed ? 'passed this run (remove the mark once it always does)' : `failed: ${result.error ?? ''} ${result.offIdeal.join(', ')}`}\n`,
            );
          },
          300_000,
        );
      });
  });
}
