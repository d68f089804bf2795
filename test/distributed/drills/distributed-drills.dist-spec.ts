import { IDEAL_FIGURES } from '@lomo/operator';
import type { FaultPreset } from '../../drills/harness/fault-runs';
import { runScenario, type ScenarioResult } from '../../drills/harness/run-scenario';
import { loadScenarios } from '../../drills/harness/scenario-file';
import { DistributedDrillApp } from './distributed-drill-app';
import { verdict } from '../../drills/harness/drill-verdict';

// Issue 21: "a drill harness that drives the standalone app (or the distributed apps, same
// drill)", and the must-show fault "the generation app restarted mid-poll". The same scenario
// files, scripted person, client and metrics as test/drills (every-scenario.drill-spec.ts,
// fault-runs.drill-spec.ts), on the built apps of dist/ as separate processes with
// LOMO_MODE=distributed on Kafka and FerretDB (distributed-drill-app.ts). One drill at a time:
// the apps' Kafka topics have fixed names.

jest.setTimeout(600_000);

const scenarios = loadScenarios();
const scenario = (name: string) => {
  const found = scenarios.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no scenario ${name} in test/drills/scenarios`);
  return found;
};

function expectIdeal(r: ScenarioResult, app: DistributedDrillApp): void {
  const ideal = { completed: true, error: null, unmet: [], figures: { ...IDEAL_FIGURES }, findings: [] };
  // On failure the apps' last error lines and stderr tails say what the deployment did.
  if (!r.passed) process.stderr.write(`${r.name} on the distributed apps failed:\n${app.diagnostics()}\n`);
  expect(verdict(r)).toEqual(ideal);
  expect(r.metrics!.deliveredArtifacts).toBeGreaterThan(0);
  expect(r.passed).toBe(true);
}

function report(r: ScenarioResult, app: DistributedDrillApp): void {
  process.stderr.write(
    `distributed drill ${r.name}${r.faults.length > 0 ? ` (${r.faults.join('+')})` : ''}: ${r.passed ? 'passed' : 'FAILED'} in ${(r.wallMs / 1000).toFixed(1)} s, events ${r.metrics?.events ?? 0}, delivered ${r.metrics?.deliveredArtifacts ?? 0}, kills ${JSON.stringify(r.kills)}, generation starts ${JSON.stringify(app.generationStarts)}, generation kills ${JSON.stringify(app.generationKills)}, upstream ${JSON.stringify(app.upstreamCounters ?? null)}, evidence ${JSON.stringify(r.faultEvidence ?? null)}\n`,
  );
}

/** Runs one scenario on a fresh distributed deployment; the app is kept for its evidence. */
async function runDistributed(
  name: string,
  faults: FaultPreset[] = [],
): Promise<{ result: ScenarioResult; app: DistributedDrillApp }> {
  let app: DistributedDrillApp | undefined;
  const result = await runScenario(scenario(name), {
    model: 'offline',
    faults,
    app: (env) => (app = new DistributedDrillApp({ env })),
  });
  report(result, app!);
  return { result, app: app! };
}

describe('the drills on the distributed apps (api, router, executor, projector, relay, notifier, generation)', () => {
  it.each(['poster-series', 'asset-3d'])(
    '%s completes with the offline model with every metric at its ideal value',
    async (name) => {
      const { result, app } = await runDistributed(name);
      expectIdeal(result, app);
      // Every app ran as its own process, once: nothing was restarted.
      const apps = app.processes.map((p) => p.app).sort();
      expect(apps).toEqual(['api', 'executor', 'generation', 'notifier', 'projector', 'relay', 'router']);
      // The paid work went through the generation app to the upstream and back by callback.
      expect(app.upstreamCounters).toMatchObject({ submitRequests: expect.any(Number) });
      expect(app.upstreamCounters!.submitRequests).toBeGreaterThan(0);
      expect(app.upstreamCounters!.callbacksSent).toBeGreaterThan(0);
    },
  );

  it('generation-restart: only the generation app SIGKILLed mid-poll and restarted, the same metrics hold', async () => {
    // asset-3d: one paid job. With lost callbacks (the preset) the poll is the only way it completes.
    const { result, app } = await runDistributed('asset-3d', ['generation-restart']);
    expectIdeal(result, app);
    expect(result.kills).toHaveLength(1);
    const [kill] = result.kills;
    expect(kill).toMatchObject({ preset: 'generation-restart', seen: 'GenerationSubmitted' });
    // Only the generation app died: two generation processes (the first SIGKILLed), every other
    // app the one it started with.
    const byApp = (name: string) => app.processes.filter((p) => p.app === name);
    expect(byApp('generation')).toHaveLength(2);
    expect(await byApp('generation')[0].exited).toEqual({ code: null, signal: 'SIGKILL' });
    for (const other of ['api', 'executor', 'projector', 'relay', 'router', 'notifier'])
      expect({ app: other, processes: byApp(other).length }).toEqual({ app: other, processes: 1 });
    // Mid-poll: the killed process had polled the upstream for the submitted job, which had not
    // finished (no result downloaded; nor on the person's feed); the restarted one polled again.
    expect(kill.finishedOnFeedAtKill).toBe(false);
    expect(app.generationKills).toHaveLength(1);
    const [atKill] = app.generationKills;
    expect(atKill.polledSinceSubmitted).toBeGreaterThan(0);
    expect(atKill.downloadsAtKill).toBe(0);
    expect(app.upstreamCounters!.pollRequests).toBeGreaterThan(atKill.pollsAtKill);
    // The result was downloaded (the job completed) after the kill: by the restarted process.
    expect(app.upstreamCounters!.downloadRequests).toBeGreaterThan(atKill.downloadsAtKill);
    const evidence = result.faultEvidence!;
    // The killed job completed after the restart; none of its progress came by callback (every
    // callback was lost), so the restarted generation app polled it to completion. (Whether the
    // killed process recorded progress from its poll varies: the SIGKILL can land between the
    // upstream's answer and the append, so `killedJobProgress.poll` is 0 or 1.)
    expect(evidence.killedFinished).toBe(1);
    expect(evidence.killedJobProgress.callback).toBe(0);
    expect(evidence.upstream!.pollRequests).toBeGreaterThan(0);
    expect(evidence.upstream!.callbacksSent).toBe(0);
    // The restarted process took the unfinished job up at its start.
    expect(app.generationStarts).toHaveLength(2);
    expect(app.generationStarts[1].resumedJobs).toBeGreaterThanOrEqual(1);
  });
});
