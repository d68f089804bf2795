import * as path from 'node:path';
import type { TestMutation } from '@lomo/contracts';
import { runScenario, type DrillModel, type ScenarioResult } from '../harness/run-scenario';
import { loadScenarioFile, SCENARIO_DIR } from '../harness/scenario-file';
import type { DrillScenario } from '../harness/scenario-schema';

/** The mutation drills' own scenarios (test/drills/mutations/*.yaml): not gated by every-scenario. */
export const MUTATION_SCENARIO_DIR = __dirname;

/** A scenario by name: the mutation drills' own directory first, then test/drills/scenarios. */
export function mutationScenario(name: string): DrillScenario {
  const own = path.join(MUTATION_SCENARIO_DIR, `${name}.yaml`);
  try {
    return loadScenarioFile(own);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return loadScenarioFile(path.join(SCENARIO_DIR, `${name}.yaml`));
  }
}

/**
 * The same person with less patience: every wait gives up after `timeout`. A switched-off
 * safeguard often leaves the person waiting for something that never comes (a card, the end of
 * the checklist); the drill then fails at that wait, and its log is scored all the same.
 */
export function impatient(scenario: DrillScenario, timeout: string): DrillScenario {
  return {
    ...scenario,
    person: scenario.person.map((step) => {
      if ('wait' in step) return { wait: { ...step.wait, timeout } };
      if ('nudge_if_stalled' in step) return { nudge_if_stalled: { ...step.nudge_if_stalled, timeout } };
      return step;
    }),
  };
}

export interface MutationRun {
  scenario: string;
  model: DrillModel;
  /** No mutation: the control run of the scenario. */
  mutation?: TestMutation;
  /** Wait timeout of the mutated run (see `impatient`). */
  patience?: string;
}

/**
 * Runs drills at most `parallel` at a time (this machine has two cores), each once per key, so
 * a control run several tests compare against is played once. Every run has test control on.
 */
export class MutationRuns {
  private readonly results = new Map<string, Promise<ScenarioResult>>();
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly parallel = 2) {}

  static key(run: MutationRun): string {
    return `${run.scenario}|${run.model}|${run.mutation ?? 'control'}`;
  }

  get(run: MutationRun): Promise<ScenarioResult> {
    const key = MutationRuns.key(run);
    let result = this.results.get(key);
    if (result === undefined) {
      result = this.limited(() => this.play(run));
      this.results.set(key, result);
    }
    return result;
  }

  private async play(run: MutationRun): Promise<ScenarioResult> {
    const loaded = mutationScenario(run.scenario);
    const scenario =
      run.mutation !== undefined && run.patience !== undefined ? impatient(loaded, run.patience) : loaded;
    return runScenario(scenario, {
      model: run.model,
      env: {
        LOMO_TEST_CONTROL: 'on',
        ...(run.mutation !== undefined ? { LOMO_TEST_MUTATIONS: run.mutation } : {}),
      },
    });
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.parallel) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.queue.shift()?.();
    }
  }
}
