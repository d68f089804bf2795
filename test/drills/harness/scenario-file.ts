import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { scenarioSchema, STEP_SCHEMAS, type DrillScenario } from './scenario-schema';

export const SCENARIO_DIR = path.resolve(__dirname, '../scenarios');

/** A scenario file that cannot be read as a scenario: which file, and each problem by its path. */
export class ScenarioFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`scenario file ${file} is not a valid drill scenario:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ScenarioFileError';
  }
}

export function parseScenario(text: string, file: string): DrillScenario {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ScenarioFileError(file, [`not YAML: ${(error as Error).message}`]);
  }
  const parsed = scenarioSchema.safeParse(raw);
  if (!parsed.success)
    throw new ScenarioFileError(
      file,
      parsed.error.issues.flatMap((issue) => explain(issue, raw)),
    );
  const expectedName = path.basename(file).replace(/\.ya?ml$/, '');
  if (parsed.data.name !== expectedName)
    throw new ScenarioFileError(file, [`name: "${parsed.data.name}" differs from the file name "${expectedName}"`]);
  return parsed.data;
}

type Issue = z.core.$ZodIssue;

/**
 * A readable line per problem. A step failing the union of step kinds is validated again
 * against the one schema its key names, so the message says what is wrong with that step
 * ("person.3.wait.for: Invalid option") rather than "Invalid input".
 */
function explain(issue: Issue, raw: unknown): string[] {
  const at = (path: PropertyKey[]) => path.map(String).join('.') || '(file)';
  const stepIndex = issue.path[0] === 'person' && issue.path.length === 2 ? Number(issue.path[1]) : NaN;
  if (issue.code === 'invalid_union' && Number.isInteger(stepIndex)) {
    const step = (raw as { person: unknown[] }).person[stepIndex];
    const keys = typeof step === 'object' && step !== null ? Object.keys(step) : [];
    const schema = keys.length === 1 ? STEP_SCHEMAS[keys[0] as keyof typeof STEP_SCHEMAS] : undefined;
    if (schema === undefined)
      return [
        `${at(issue.path)}: a step is one of ${Object.keys(STEP_SCHEMAS).join(', ')}; got ${JSON.stringify(keys)}`,
      ];
    const again = schema.safeParse(step);
    if (!again.success) return again.error.issues.map((i) => `${at([...issue.path, ...i.path])}: ${i.message}`);
  }
  return [`${at(issue.path)}: ${issue.message}`];
}

export function loadScenarioFile(file: string): DrillScenario {
  return parseScenario(readFileSync(file, 'utf8'), file);
}

/** Every scenario of the directory, in file-name order; `only` picks some by name. */
export function loadScenarios(only: readonly string[] = [], dir = SCENARIO_DIR): DrillScenario[] {
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  const scenarios = files.map((f) => loadScenarioFile(path.join(dir, f)));
  const unknown = only.filter((name) => !scenarios.some((s) => s.name === name));
  if (unknown.length > 0)
    throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
  return only.length === 0 ? scenarios : scenarios.filter((s) => only.includes(s.name));
}
