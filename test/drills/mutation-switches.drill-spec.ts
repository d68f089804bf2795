import { IDEAL_FIGURES } from '@lomo/operator';
import type { TestMutation } from '@lomo/contracts';
import type { DrillModel, ScenarioResult } from './harness/run-scenario';
import { SUMMARY_KEYS } from './harness/drill-report';
import { loadScenarios } from './harness/scenario-file';
import { MUTATION_SCENARIO_DIR, MutationRuns } from './mutations/mutation-runs';

// Issue 21: "The metrics can fail: one mutation switch per summary metric, each shown in a test
// to make its metric non-zero." Each test plays a drill with one safeguard switched off
// (LOMO_TEST_CONTROL=on, LOMO_TEST_MUTATIONS=<switch>; libs/platform/src/test-control/README.md)
// and scores its event log as every drill is scored (scenario-metrics.ts, @lomo/operator's
// collaborationMetrics): the switch's metric is above zero. The control is the same scenario
// with no switch: that metric is 0 there. A switched-off safeguard often leaves the person waiting
// for something that never comes; the mutated run then gives up its waits sooner (`patience`)
// and fails its steps, and its log is scored all the same. At most two drills run at a time (the
// mutated run and its control); a control two tests share is played once.

type Metric = keyof typeof IDEAL_FIGURES;

interface SwitchCase {
  mutation: TestMutation;
  metric: Metric;
  scenario: string;
  model: DrillModel;
  patience?: string;
}

const CASES: SwitchCase[] = [
  // The model (offline) stops after its first stage; the person has to type "continue".
  {
    mutation: 'no_fallback_card',
    metric: 'continue_prompts',
    scenario: 'nudged-posters',
    model: 'offline',
    patience: '45s',
  },
  // The approved layouts are asked about again once the posters are done.
  {
    mutation: 'no_settled_check',
    metric: 'unnecessary_confirmations',
    scenario: 'nudged-posters',
    model: 'offline',
    patience: '45s',
  },
  // The adjusted storyboard has no {artefacts} link in the checklist: it is written again as a new document.
  {
    mutation: 'no_artifact_reuse',
    metric: 'duplicate_artifacts',
    scenario: 'short-video',
    model: 'offline',
    patience: '45s',
  },
  // "And make it warmer", right after the person asked the video how it is coming along, goes to
  // the 3D ferry that finished rendering meanwhile (the most recently active task in the index).
  {
    mutation: 'no_routing_context',
    metric: 'misroutes',
    scenario: 'deictic-follow-up',
    model: 'offline',
    patience: '45s',
  },
  // The prompts after the forgetting still quote the forgotten colour.
  {
    mutation: 'no_forgetting_cascade',
    metric: 'forgotten_reappearing',
    scenario: 'memory-correction-forgetting',
    model: 'offline',
    patience: '45s',
  },
  // The approval turns carry no message of the person: with no language line the replies are English.
  {
    mutation: 'no_language_carry',
    metric: 'language_switches',
    scenario: 'chinese-posters',
    model: 'offline',
    patience: '45s',
  },
  // The person's edit of the script never reaches the prompt: the agent edits from the version it
  // last read (the reactive model decides from its prompt alone), older than the person's.
  {
    mutation: 'no_change_notice',
    metric: 'stale_edits',
    scenario: 'edited-script',
    model: 'reactive',
    patience: '45s',
  },
  // No approval card before the paid 3D model: it is charged with nothing approved.
  { mutation: 'no_budget_check', metric: 'cost_over_budget', scenario: 'asset-3d', model: 'offline', patience: '45s' },
  // The app crashes right after ordering the first poster, before the tool's pending answer
  // (crash_after_media_order); the retried call orders a second paid job instead of joining it.
  {
    mutation: 'no_duplicate_check',
    metric: 'duplicate_generations',
    scenario: 'killed-posters',
    model: 'offline',
    patience: '45s',
  },
];

const runs = new MutationRuns(2);

const figure = (r: ScenarioResult, metric: Metric) => r.metrics?.figures[metric];
/** What a failing assertion shows: the figure, how the run ended, and every finding of the log. */
const why = (r: ScenarioResult, metric: Metric) => ({
  figure: figure(r, metric),
  completed: r.completed,
  error: r.error ?? null,
  findings: r.metrics?.findings ?? null,
});

describe('mutation scenarios (test/drills/mutations)', () => {
  it('every file is a valid scenario, and nudge_if_stalled types a bare "continue" unless told otherwise', () => {
    const scenarios = loadScenarios([], MUTATION_SCENARIO_DIR);
    expect(scenarios.map((s) => s.name)).toEqual(
      expect.arrayContaining(['chinese-posters', 'nudged-posters', 'killed-posters', 'edited-script']),
    );
    const nudges = scenarios
      .find((s) => s.name === 'nudged-posters')!
      .person.flatMap((step) => ('nudge_if_stalled' in step ? [step.nudge_if_stalled] : []));
    expect(nudges).toEqual([
      { task: 'posters', text: 'continue', max: 2, timeout: '60s' },
      { task: 'posters', text: 'continue', max: 3, timeout: '60s' },
    ]);
  });
});

describe('mutation switches: each summary metric can fail', () => {
  it.each(CASES.map((c) => [`${c.mutation} makes ${c.metric} non-zero`, c] as const))(
    '%s',
    async (_name, c) => {
      // The two side by side; a control another test already played is reused.
      const [mutated, control] = await Promise.all([
        runs.get({ scenario: c.scenario, model: c.model, mutation: c.mutation, patience: c.patience }),
        runs.get({ scenario: c.scenario, model: c.model }),
      ]);
      process.stderr.write(
        `${c.mutation}: ${c.metric} ${String(figure(mutated, c.metric))} (control ${String(figure(control, c.metric))}); ` +
          `${c.scenario}, ${c.model}, ${Math.round(mutated.wallMs / 1000)} s / ${Math.round(control.wallMs / 1000)} s\n`,
      );
      // A failure shows how the mutated run ended and every finding of its log.
      expect({ aboveZero: (figure(mutated, c.metric) ?? 0) > 0, ...why(mutated, c.metric) }).toEqual({
        ...why(mutated, c.metric),
        aboveZero: true,
      });
      // The control: the same scenario without the switch scores 0 for the metric.
      expect(why(control, c.metric)).toEqual({ ...why(control, c.metric), figure: 0 });
    },
    600_000,
  );

  it('covers every summary metric with a switch', () => {
    expect(CASES.map((c) => c.metric).sort()).toEqual([...SUMMARY_KEYS].sort());
  });
});
