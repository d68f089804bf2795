// `npm run drills`: every end-to-end drill scenario (test/drills/scenarios) against the built
// standalone app, each on a fresh data directory, scored from its event log (issue 21).
//   --json                 one JSON line per scenario, then the summary line, on stdout
//   --scenario <name>      only this scenario (repeatable)
//   --model offline|reactive|openai   the agent's model (default offline): LOMO_MODEL_PROVIDER
//   --env K=V              extra app environment (repeatable), e.g. LOMO_TEST_FAULTS=...
//   --parallel <n>         scenarios at a time (default 1; 2 fits a 2-core machine)
//   --max-model-tokens <n> the cost cap: LOMO_MODEL_TOKEN_BUDGET for the app, the input + output
//                          tokens each app process may send to the model; past it every model call
//                          fails (MODEL_BUDGET_EXHAUSTED) and the scenario fails saying so
//   --keep                 keep each data directory (printed) for `lomo metrics` / `lomo task inspect`
//   --faults <preset>      fault run (repeatable or comma list; test/drills/README.md "Fault runs"):
//                          callbacks (duplicate + lost callbacks, 2 s silence before the poll),
//                          wakeups (lost wake-ups), kill-mid-step (the harness SIGKILLs the app
//                          when the feed shows a turn leased, restarts it on the same data directory),
//                          generation-restart (lost callbacks; SIGKILL while a job is submitted and
//                          not finished, restart: the restarted generation service's poll completes it)
// Exits 1 when a scenario that is not a known gap fails, 2 on bad arguments or scenario files.
import { parseArgs } from 'node:util';
import { summarize, scenarioLine, table } from '../../test/drills/harness/drill-report';
import { buildOnce } from '../../test/drills/harness/drill-app';
import { runScenario, type DrillModel, type ScenarioResult } from '../../test/drills/harness/run-scenario';
import { loadScenarios } from '../../test/drills/harness/scenario-file';
import { FAULT_PRESETS, isFaultPreset, type FaultPreset } from '../../test/drills/harness/fault-runs';

const MODELS = ['offline', 'reactive', 'openai'] as const;

function options() {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      scenario: { type: 'string', multiple: true, default: [] },
      model: { type: 'string', default: 'offline' },
      env: { type: 'string', multiple: true, default: [] },
      parallel: { type: 'string', default: '1' },
      keep: { type: 'boolean', default: false },
      faults: { type: 'string', multiple: true, default: [] },
      'max-model-tokens': { type: 'string' },
    },
  });
  if (!(MODELS as readonly string[]).includes(values.model))
    throw new Error(`--model must be one of ${MODELS.join(', ')}`);
  const env: Record<string, string> = {};
  for (const pair of values.env) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--env takes K=V, got ${JSON.stringify(pair)}`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const cap = values['max-model-tokens'];
  if (cap !== undefined) {
    if (!/^[1-9]\d*$/.test(cap))
      throw new Error(`--max-model-tokens takes a positive whole number, got ${JSON.stringify(cap)}`);
    env.LOMO_MODEL_TOKEN_BUDGET = cap;
  }
  const faults: FaultPreset[] = [];
  for (const name of values.faults.flatMap((v) => v.split(',')).map((v) => v.trim())) {
    if (!isFaultPreset(name))
      throw new Error(`--faults takes ${FAULT_PRESETS.join(', ')}; got ${JSON.stringify(name)}`);
    if (!faults.includes(name)) faults.push(name);
  }
  const parallel = Number(values.parallel);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 4) throw new Error('--parallel must be 1 to 4');
  return {
    json: values.json,
    only: values.scenario,
    model: values.model as DrillModel,
    env,
    parallel,
    keep: values.keep,
    faults,
  };
}

async function main(): Promise<number> {
  let opts: ReturnType<typeof options>;
  let scenarios: ReturnType<typeof loadScenarios>;
  try {
    opts = options();
    scenarios = loadScenarios(opts.only);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const started = Date.now();
  // Progress goes to stderr so that --json's stdout is only the result lines.
  const say = (line: string) => process.stderr.write(`${line}\n`);
  await buildOnce();
  const results: ScenarioResult[] = new Array(scenarios.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < scenarios.length; i = next++) {
      const faults = opts.faults.length > 0 ? `, faults ${opts.faults.join('+')}` : '';
      say(`drill ${scenarios[i].name}: started (${opts.model}${faults})`);
      results[i] = await runScenario(scenarios[i], {
        model: opts.model,
        env: opts.env,
        keepDataDir: opts.keep,
        faults: opts.faults,
      });
      const r = results[i];
      say(
        `drill ${r.name}: ${r.passed ? 'passed' : r.status === 'known-gap' ? 'known gap' : 'FAILED'} in ${(r.wallMs / 1000).toFixed(1)} s` +
          (r.error !== undefined ? ` (${r.error.slice(0, 300)})` : '') +
          (r.unmet.length > 0 ? ` unmet: ${r.unmet.join('; ')}` : '') +
          (r.offIdeal.length > 0 ? ` off ideal: ${r.offIdeal.join(', ')}` : '') +
          (r.faults.length > 0
            ? ` kills: ${r.kills.length}; evidence: ${JSON.stringify(r.faultEvidence ?? null)}`
            : '') +
          (r.dataDir !== undefined ? ` data: ${r.dataDir}` : ''),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.parallel, scenarios.length) }, worker));
  const wallMs = Date.now() - started;
  const summary = summarize(results);
  say('');
  say(table(results));
  say('');
  say(
    `${summary.passed}/${summary.scenarios} passed; wall time ${(wallMs / 1000).toFixed(1)} s (${opts.parallel} at a time)`,
  );
  for (const r of results.filter((x) => x.status === 'known-gap'))
    say(`known gap ${r.name}${r.passed ? ' (passed this run: remove the mark once it always does)' : ''}: ${r.gap}`);
  if (opts.json) {
    for (const r of results) process.stdout.write(`${JSON.stringify(scenarioLine(r))}\n`);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  }
  const failed = results.filter((r) => !r.passed && r.status !== 'known-gap');
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
