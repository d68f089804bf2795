import { readdirSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { lintSource, lintTree, repoRoot } from './support/run-eslint';

// The package rules (scripts/eslint/package-boundaries.mjs): apps are composition roots, libraries
// are reached by their @lomo names, and production code carries no test code. These prove the
// rules bite on planted imports and hold on the tree as it is.
const boundaryRules = new Set(['lomo/package-boundaries', 'lomo/no-test-code-in-production']);
const boundaryErrors = (filePath: string, source: string) =>
  lintSource(filePath, source).filter((m) => m.ruleId !== null && boundaryRules.has(m.ruleId));

describe('lint rule: package boundaries', () => {
  it('passes on the tree as it is (apps, libs, test, bench, scripts)', () => {
    const findings = lintTree(['apps', 'libs', 'test', 'bench', 'scripts']).flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId !== null && boundaryRules.has(m.ruleId))
        .map((m) => `${path.relative(repoRoot, r.filePath)}: ${m.message}`),
    );
    expect(findings).toEqual([]);
  });

  it('fails on a planted cross-app import', () => {
    const errors = boundaryErrors(
      'apps/standalone/src/probe.ts',
      "import { ApiModule } from '../../api/src/api.module';\nexport const m = ApiModule;\n",
    );
    expect(errors.map((e) => e.ruleId)).toEqual(['lomo/package-boundaries']);
    expect(errors[0].message).toMatch(/apps are composition roots/);
  });

  it.each([
    ['an app', 'apps/api/src/probe.ts', "import { TaskWorker } from '../../../libs/runtime/src/worker/task-worker';"],
    ['a library', 'libs/api/src/probe.ts', "import { TaskWorker } from '../../runtime/src/worker/task-worker';"],
    ['a test', 'test/integration/probe.ts', "import { TaskWorker } from '../../libs/runtime/src/worker/task-worker';"],
    ['a bench', 'bench/probe.ts', "import { TaskWorker } from '../libs/runtime/src/worker/task-worker';"],
  ])('fails on a planted relative libs/x/src import from %s', (_, filePath, line) => {
    const errors = boundaryErrors(filePath, `${line}\nexport const w = TaskWorker;\n`);
    expect(errors.map((e) => e.ruleId)).toEqual(['lomo/package-boundaries']);
    expect(errors[0].message).toMatch(/leaves .* for libs\/runtime/);
  });

  it('fails on a deep @lomo import past the entry points', () => {
    const errors = boundaryErrors(
      'libs/api/src/probe.ts',
      "import { TaskWorker } from '@lomo/runtime/worker/task-worker';\nexport const w = TaskWorker;\n",
    );
    expect(errors.map((e) => e.ruleId)).toEqual(['lomo/package-boundaries']);
  });

  it('fails on a library importing its own @lomo name (a load-order cycle)', () => {
    const errors = boundaryErrors(
      'libs/contracts/src/probe.ts',
      "import { LomoError } from '@lomo/contracts';\nexport const e = LomoError;\n",
    );
    expect(errors.map((e) => e.ruleId)).toEqual(['lomo/package-boundaries']);
  });

  it('lets test/ import an app by path (it tests apps)', () => {
    const source =
      "import { ApiAppModule } from '../../apps/api/src/api-app.module';\nexport const m = ApiAppModule;\n";
    expect(boundaryErrors('test/integration/probe.ts', source)).toEqual([]);
  });
});

describe('lint rule: no test code in production files', () => {
  const imports = [
    "import { RuntimeHarness } from '@lomo/runtime/testing';",
    "import { FakeClock } from '@lomo/testing';",
    "import { ManualScheduler } from '../testing/manual-scheduler';",
  ];
  const source = `${imports.join('\n')}\nexport const all = [RuntimeHarness, FakeClock, ManualScheduler];\n`;

  it('fails once per test import in a production file', () => {
    const errors = boundaryErrors('libs/runtime/src/worker/probe.ts', source);
    expect(errors.map((e) => e.ruleId)).toEqual(imports.map(() => 'lomo/no-test-code-in-production'));
  });

  it.each(['libs/runtime/src/worker/probe.spec.ts', 'libs/runtime/src/testing/probe.ts', 'libs/testing/src/probe.ts'])(
    'allows them in %s',
    (filePath) => {
      const testImports = boundaryErrors(filePath, source).filter(
        (e) => e.ruleId === 'lomo/no-test-code-in-production',
      );
      expect(testImports).toEqual([]);
    },
  );
});

describe('production barrels export no test code', () => {
  const libs = readdirSync(path.join(repoRoot, 'libs')).filter((lib) =>
    existsSync(path.join(repoRoot, 'libs', lib, 'src', 'testing', 'index.ts')),
  );

  it('has testing entry points to compare', () => {
    expect(libs).toEqual(expect.arrayContaining(['bus', 'eventstore', 'llm', 'runtime', 'tools']));
  });

  it.each(libs)('@lomo/%s exports none of the names of @lomo/%s/testing', (lib) => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const production = Object.keys(require(path.join(repoRoot, 'libs', lib, 'src')) as object);
    const testing = Object.keys(require(path.join(repoRoot, 'libs', lib, 'src', 'testing')) as object);
    /* eslint-enable @typescript-eslint/no-require-imports */
    expect(testing.length).toBeGreaterThan(0);
    expect(production.filter((name) => testing.includes(name))).toEqual([]);
  });
});
