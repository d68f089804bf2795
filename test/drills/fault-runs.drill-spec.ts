import { IDEAL_FIGURES } from '@lomo/operator';
import type { FaultPreset } from './harness/fault-runs';
import { runScenario, type ScenarioResult } from './harness/run-scenario';
import { loadScenarios } from './harness/scenario-file';
import type { DrillScenario } from './harness/scenario-schema';
import { verdict } from './harness/drill-verdict';

// Issue 21's second must-show: with fault switches on (duplicate and lost callbacks, lost
// wake-ups, the standalone process SIGKILLed mid-step and restarted on the same data directory,
// the generation service restarted mid-poll) the same metrics hold. Each run also asserts that
// its fault happened (from the upstream's counters and the event log), so none passes without it.
// Scenarios run two at a time (this 2-core machine), each on its own app and data directory.

const ready = loadScenarios().filter((s) => s.status === 'ready');
const named = (names: string[]) => ready.filter((s) => names.includes(s.name));

/** Callbacks and wake-ups over every scenario; the crashes over the ones that exercise them. */
const CALLBACKS_AND_WAKEUPS: FaultPreset[] = ['callbacks', 'wakeups'];
/** Model steps in every turn; one scenario with paid work and approvals, one with a Flows edit. */
const KILL_MID_STEP = named(['poster-series', 'flows-workflow-edit']);
/** Paid generation: one job (asset-3d), and a render the person stops after the restart. */
const GENERATION_RESTART = named(['asset-3d', 'stop-while-rendering']);

const PARALLEL = 2;

async function runAll(jobs: Array<{ scenario: DrillScenario; faults: FaultPreset[] }>): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++)
      results[i] = await runScenario(jobs[i].scenario, { model: 'offline', faults: jobs[i].faults });
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, worker));
  for (const r of results)
    process.stderr.write(
      `fault run ${r.name} (${r.faults.join('+')}): ${r.passed ? 'passed' : 'FAILED'} in ${(r.wallMs / 1000).toFixed(1)} s, kills ${r.kills.length}, evidence ${JSON.stringify(r.faultEvidence ?? null)}\n`,
    );
  return results;
}

function expectIdeal(r: ScenarioResult): void {
  expect(verdict(r)).toEqual({ completed: true, error: null, unmet: [], figures: { ...IDEAL_FIGURES }, findings: [] });
  expect(r.metrics!.deliveredArtifacts).toBeGreaterThan(0);
  expect(r.passed).toBe(true);
}

const spentMinor = (r: ScenarioResult) =>
  Object.values(r.metrics?.figures.cost_spent_minor ?? {}).reduce((sum, v) => sum + v, 0);

describe('with fault switches on the same metrics hold', () => {
  describe('duplicate and lost callbacks, and lost wake-ups, over every scenario', () => {
    let results: ScenarioResult[] = [];
    beforeAll(async () => {
      results = await runAll(ready.map((scenario) => ({ scenario, faults: CALLBACKS_AND_WAKEUPS })));
    }, 900_000);

    it.each(ready.map((s, i) => [s.name, i] as const))('%s', (_name, i) => {
      const r = results[i];
      expectIdeal(r);
      const e = r.faultEvidence!;
      // A lost wake-up happened and the watchdog opened the turn it would have.
      expect(e.watchdogTurns).toBeGreaterThan(0);
      if (spentMinor(r) > 0) {
        // Paid work: a callback was sent twice (the ledger refused the replay), one was lost and
        // a poll after the short silence recorded the progress instead.
        expect(e.duplicateCallbacksSent).toBeGreaterThan(0);
        expect(e.upstream!.callbacksLost).toBeGreaterThan(0);
        expect(e.polledProgress).toBeGreaterThan(0);
      }
    });

    it('every scenario but the one without paid generation saw a duplicate and a lost callback', () => {
      const paid = results.filter((r) => spentMinor(r) > 0);
      expect(paid.length).toBeGreaterThanOrEqual(ready.length - 1);
      expect(paid.filter((r) => (r.faultEvidence?.duplicateCallbacksSent ?? 0) > 0)).toHaveLength(paid.length);
    });
  });

  describe('crashes: the standalone process SIGKILLed and restarted on the same data directory', () => {
    const jobs = [
      ...KILL_MID_STEP.map((scenario) => ({ scenario, faults: ['kill-mid-step'] as FaultPreset[] })),
      ...GENERATION_RESTART.map((scenario) => ({ scenario, faults: ['generation-restart'] as FaultPreset[] })),
    ];
    let results: ScenarioResult[] = [];
    beforeAll(async () => {
      results = await runAll(jobs);
    }, 900_000);

    it.each(jobs.map((j, i) => [j.faults[0], j.scenario.name, i] as const))('%s: %s', (preset, _name, i) => {
      const r = results[i];
      expectIdeal(r);
      expect(r.kills.length).toBeGreaterThan(0);
      expect(r.kills.every((k) => k.preset === preset)).toBe(true);
      // What was cut finished after the restart: the killed turn completed, the killed job completed.
      expect(r.faultEvidence!.killedFinished).toBe(r.kills.length);
      if (preset === 'kill-mid-step') expect(r.kills.every((k) => k.seen === 'TurnLeased')).toBe(true);
      else {
        expect(r.kills.every((k) => k.seen === 'GenerationSubmitted')).toBe(true);
        // The restarted generation service polled the upstream for the job it had submitted. (The
        // upstream child restarts with the app, its faults on from its start: the resumed job's
        // callbacks are lost, none slips through before the app forwards the switches again.)
        expect(r.faultEvidence!.upstream!.pollRequests).toBeGreaterThan(0);
        // No progress of a killed job came by callback: it completed through the poll.
        expect(r.faultEvidence!.killedJobProgress.callback).toBe(0);
      }
    });
  });
});
