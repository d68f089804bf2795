import { IDEAL_FIGURES } from '@lomo/operator';
import { DrillApp, type DrillTarget } from './drill-app';
import { DrillClient } from './drill-client';
import { TASK_ARTIFACTS, TASK_STATE, type TaskState } from './queries';
import type { DrillScenario } from './scenario-schema';
import { scenarioMetrics, type ScenarioMetrics } from './scenario-metrics';
import { ScriptedPerson, type AppCrash } from './scripted-person';
import type { ClockAdvance } from './test-control';
import {
  FaultDriver,
  faultEnv,
  faultEvidence,
  type FaultEvidence,
  type FaultKill,
  type FaultPreset,
} from './fault-runs';

export type DrillModel = 'offline' | 'reactive' | 'openai';

export interface DrillOptions {
  model?: DrillModel;
  /** Extra app environment (test-control switches, endpoint settings), after the scenario's own. */
  env?: Record<string, string>;
  /** Keep the data directory for inspection (`lomo metrics`, `lomo task inspect`). */
  keepDataDir?: boolean;
  /** Fault presets (fault-runs.ts): their switches, and the harness's kills driven by the feed. */
  faults?: readonly FaultPreset[];
  log?: (line: string, context?: Record<string, unknown>) => void;
  /**
   * What the drill runs on, given the app environment of the scenario, the model and the faults:
   * default the built standalone app (`new DrillApp({ env })`); the distributed drills pass
   * `(env) => new DistributedDrillApp({ env })` (test/distributed/drills).
   */
  app?: (env: Record<string, string>) => DrillTarget;
}

export interface ScenarioResult {
  name: string;
  title: string;
  status: DrillScenario['status'];
  gap?: string;
  model: DrillModel;
  /** Every step of the person was done. */
  completed: boolean;
  /** Completed, every expectation held, and every figure at its ideal value. */
  passed: boolean;
  error?: string;
  /** Expectations of the scenario's `expect` that did not hold. */
  unmet: string[];
  /** Figures that differ from IDEAL_FIGURES, as "name=value". */
  offIdeal: string[];
  metrics?: ScenarioMetrics;
  clock: ClockAdvance[];
  /** The fault presets of the run (empty without). */
  faults: FaultPreset[];
  /** The harness's SIGKILLs and restarts. */
  kills: FaultKill[];
  /** Crashes the app did at a crash point the person armed (`arm_crash`, `restart: crashed`). */
  crashes: AppCrash[];
  /** What the log and the upstream show of the faults (fault runs only). */
  faultEvidence?: FaultEvidence;
  wallMs: number;
  dataDir?: string;
}

/** The workspace and user of the drill's person: one workspace per drill, on a fresh data directory. */
const WORKSPACE = 'ws_drill';

/**
 * One drill: the built standalone app on a fresh data directory, the scenario's person playing
 * through the public API, then the metrics from the event log with the scenario's ground truth.
 */
export async function runScenario(scenario: DrillScenario, options: DrillOptions = {}): Promise<ScenarioResult> {
  const started = Date.now();
  const model = options.model ?? 'offline';
  const log = options.log ?? (() => undefined);
  const faults = [...(options.faults ?? [])];
  const env = { LOMO_MODEL_PROVIDER: model, ...scenario.env, ...faultEnv(faults), ...options.env };
  const app = options.app !== undefined ? options.app(env) : new DrillApp({ env });
  const result: ScenarioResult = {
    name: scenario.name,
    title: scenario.title,
    status: scenario.status,
    ...(scenario.gap !== undefined ? { gap: scenario.gap } : {}),
    model,
    completed: false,
    passed: false,
    unmet: [],
    offIdeal: [],
    clock: [],
    faults,
    kills: [],
    crashes: [],
    wallMs: 0,
  };
  let person: ScriptedPerson | undefined;
  let client: DrillClient | undefined;
  let driver: FaultDriver | undefined;
  try {
    await app.start();
    const [personToken, operatorToken] = await Promise.all([
      app.createToken(WORKSPACE, 'pat', 'person'),
      app.createToken('ops', 'sam', 'operator'),
    ]);
    client = new DrillClient(app.url, personToken);
    await client.connect();
    person = new ScriptedPerson(scenario, app, client, operatorToken);
    driver = new FaultDriver(faults, app, client, operatorToken);
    driver.attach();
    log('scenario started', { scenario: scenario.name, dataDir: app.dataDir, url: app.url });
    await Promise.race([person.play(), budgetSpent(app)]);
    // A kill decided on the person's last events finishes before the expectations are read.
    await driver.settle();
    if (driver.errors.length > 0) throw new Error(`fault driver: ${driver.errors.join('; ')}`);
    result.unmet = await unmetExpectations(scenario, person, client);
    result.completed = true;
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    log('scenario failed', { scenario: scenario.name, error: result.error });
  } finally {
    result.clock = person?.clock ?? [];
    result.crashes = person?.crashes ?? [];
    await driver?.settle();
    result.kills = driver?.kills ?? [];
    client?.close();
    await app.stop();
  }
  if (faults.length > 0)
    result.faultEvidence = await faultEvidence(app.dataDir, WORKSPACE, result.kills).catch(() => undefined);
  try {
    result.metrics = await scenarioMetrics(app.dataDir, WORKSPACE, {
      intendedTargets: person?.intendedTargets ?? new Map(),
      forgottenTexts: forgottenTexts(scenario),
    });
    // The cost cap (LOMO_MODEL_TOKEN_BUDGET, `npm run drills -- --max-model-tokens`) stopped the agent.
    if (result.metrics.turnFailures.includes('MODEL_BUDGET_EXHAUSTED') && result.error === undefined)
      result.error = `a turn failed on the model token budget (LOMO_MODEL_TOKEN_BUDGET=${app.env.LOMO_MODEL_TOKEN_BUDGET})`;
    result.offIdeal = Object.entries(IDEAL_FIGURES)
      .filter(([key, ideal]) => result.metrics!.figures[key as keyof typeof IDEAL_FIGURES] !== ideal)
      .map(([key]) => `${key}=${String(result.metrics!.figures[key as keyof typeof IDEAL_FIGURES])}`);
  } catch (error) {
    // A drill that failed before its first message has no workspace in the log.
    result.error ??= `metrics: ${error instanceof Error ? error.message : String(error)}`;
  }
  result.passed =
    result.completed && result.unmet.length === 0 && result.offIdeal.length === 0 && result.metrics !== undefined;
  result.wallMs = Date.now() - started;
  if (options.keepDataDir === true) result.dataDir = app.dataDir;
  await app.dispose(options.keepDataDir === true);
  return result;
}

/**
 * Rejects as soon as the app refuses a model call for its token budget (LOMO_MODEL_TOKEN_BUDGET,
 * `npm run drills -- --max-model-tokens`): the run stops there instead of waiting out the step.
 */
function budgetSpent(app: DrillTarget): Promise<never> {
  return new Promise((_resolve, reject) => {
    // Where the target does not show the executor's lines, the log's TurnFailed says it afterwards.
    app.lineListeners?.add((line) => {
      const error = line.error as { code?: unknown; message?: unknown } | undefined;
      if (error?.code === 'MODEL_BUDGET_EXHAUSTED') reject(new Error(`stopped: ${String(error.message)}`));
    });
  });
}

/** What the person asked to forget: prompts stored after the forgetting must not quote it. */
export function forgottenTexts(scenario: DrillScenario): string[] {
  return scenario.person.flatMap((step) => ('forget' in step ? [step.forget.memory_matching] : []));
}

async function unmetExpectations(
  scenario: DrillScenario,
  person: ScriptedPerson,
  client: DrillClient,
): Promise<string[]> {
  const unmet: string[] = [];
  const expect = scenario.expect;
  const state = async (name: string) =>
    (await client.request<{ task: TaskState }>(TASK_STATE, { id: person.tasks.get(name) })).task;
  for (const name of expect.checklist_done ?? []) {
    const t = await state(name);
    const open = t.checklist.filter((i) => i.status !== 'DONE' && i.status !== 'SKIPPED');
    if (t.checklist.length === 0 || open.length > 0)
      unmet.push(
        `${name}: checklist not done (${t.checklist.map((i) => `${i.itemId}=${i.status}`).join(', ') || 'no plan'})`,
      );
  }
  const liveArtifacts = async (name: string) => {
    const rows = await client.request<{ artifacts: { edges: Array<{ node: { deleted: boolean } }> } }>(TASK_ARTIFACTS, {
      task: person.tasks.get(name),
    });
    return rows.artifacts.edges.filter((e) => !e.node.deleted).length;
  };
  for (const [name, min] of Object.entries(expect.min_artifacts ?? {})) {
    const live = await liveArtifacts(name);
    if (live < min) unmet.push(`${name}: ${live} artefacts, expected at least ${min}`);
  }
  for (const [name, max] of Object.entries(expect.max_artifacts ?? {})) {
    const live = await liveArtifacts(name);
    if (live > max) unmet.push(`${name}: ${live} artefacts, expected at most ${max}`);
  }
  for (const [name, status] of Object.entries(expect.status ?? {})) {
    const t = await state(name);
    if (t.status !== status) unmet.push(`${name}: status ${t.status}, expected ${status}`);
  }
  for (const [name, language] of Object.entries(expect.language ?? {})) {
    const t = await state(name);
    if (t.language !== language) unmet.push(`${name}: language ${t.language ?? 'none'}, expected ${language}`);
  }
  return unmet;
}
