import { IDEAL_FIGURES } from '@lomo/operator';
import type { ScenarioResult } from './run-scenario';

/** What a failing drill shows in the assertion diff: why, and every finding from the log. */
export const verdict = (r: ScenarioResult) => ({
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
