import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadScenarioFile, loadScenarios, parseScenario, ScenarioFileError } from './harness/scenario-file';
import { forgottenTexts } from './harness/run-scenario';

// The harness's own contract: a scenario file a person wrote is checked before any app starts,
// and a bad one says which file and which step is wrong, as a typed error.

const errorOf = (text: string, file = 'drill.yaml'): ScenarioFileError => {
  try {
    parseScenario(text, file);
  } catch (error) {
    if (error instanceof ScenarioFileError) return error;
    throw error;
  }
  throw new Error('the scenario was accepted');
};

describe('drill scenario files', () => {
  it('every scenario of test/drills/scenarios is valid, and there are the eight of issue 21', () => {
    const scenarios = loadScenarios();
    expect(scenarios.map((s) => s.name).sort()).toEqual([
      'asset-3d',
      'flows-workflow-edit',
      'memory-correction-forgetting',
      'poster-series',
      'resume-days-later',
      'short-video',
      'stop-while-rendering',
      'three-task-switching',
    ]);
    for (const s of scenarios) if (s.status === 'known-gap') expect(s.gap?.length).toBeGreaterThan(10);
  });

  it('a step of an unknown kind is a ScenarioFileError naming the file, the step and the kinds there are', () => {
    const error = errorOf('name: drill\ntitle: t\nperson:\n  - say: {text: hi, target: {new: a}}\n  - dance: now\n');
    expect(error.file).toBe('drill.yaml');
    expect(error.problems).toEqual([
      expect.stringMatching(/^person\.1: a step is one of say, wait, .*got \["dance"\]/),
    ]);
  });

  it('a bad field inside a step is reported at its path, not as "Invalid input"', () => {
    const error = errorOf(
      'name: drill\ntitle: t\nperson:\n  - say: {text: hi, target: {new: a}}\n  - wait: {for: later, task: a}\n  - advance_clock: three days\n',
    );
    expect(error.problems).toEqual([
      expect.stringMatching(/^person\.1\.wait\.for: Invalid option/),
      expect.stringMatching(/^person\.2\.advance_clock: a duration like/),
    ]);
  });

  it('a task used before a message opens it, a known gap without a reason and a name unlike the file are refused', () => {
    expect(errorOf('name: drill\ntitle: t\nperson:\n  - approve: {task: posters}\n').problems).toEqual([
      expect.stringContaining('task "posters" is used before a message opens it'),
    ]);
    expect(
      errorOf('name: drill\ntitle: t\nstatus: known-gap\nperson:\n  - say: {text: hi, target: {new: a}}\n').problems,
    ).toEqual(['gap: a known-gap scenario says why (gap: ...)']);
    expect(errorOf('name: other\ntitle: t\nperson:\n  - say: {text: hi, target: {new: a}}\n').problems).toEqual([
      'name: "other" differs from the file name "drill"',
    ]);
    expect(errorOf('name: drill\ntitle: [unclosed\n').problems).toEqual([expect.stringMatching(/^not YAML: /)]);
  });

  it('a crash is armed before the restart that waits for it, and every armed crash is waited for', () => {
    const open = 'name: drill\ntitle: t\nperson:\n  - say: {text: hi, target: {new: a}}\n';
    const steps = (...lines: string[]) => open + lines.map((l) => `  - ${l}\n`).join('');
    expect(
      parseScenario(steps('arm_crash: after_media_order', 'restart: crashed'), 'drill.yaml').person.slice(1),
    ).toEqual([{ arm_crash: 'after_media_order' }, { restart: 'crashed' }]);
    expect(errorOf(steps('restart: crashed')).problems).toEqual([
      'person.1: restart: crashed waits for a crash no arm_crash step armed before it',
    ]);
    expect(errorOf(steps('arm_crash: after_media_order')).problems).toEqual([
      'person: an armed crash is never waited for (restart: crashed)',
    ]);
    expect(
      errorOf(steps('arm_crash: after_media_order', 'arm_crash: after_media_order', 'restart: crashed')).problems,
    ).toEqual(['person.2: a crash is armed again before it happened']);
    expect(errorOf(steps('arm_crash: after_model_reply', 'restart: crashed')).problems).toEqual([
      expect.stringMatching(/^person\.1\.arm_crash: Invalid input: expected "after_media_order"/),
    ]);
  });

  it('a file is read from disk with the same checks, and the forgotten texts are what the person asked to forget', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'drill-scenario-'));
    try {
      const file = path.join(dir, 'forgetful.yaml');
      writeFileSync(
        file,
        [
          'name: forgetful',
          'title: Forgets',
          'person:',
          '  - say: {text: "Our brand colour is teal.", target: {main: true}}',
          '  - forget: {memory_matching: teal}',
        ].join('\n'),
      );
      expect(forgottenTexts(loadScenarioFile(file))).toEqual(['teal']);
      writeFileSync(file, 'name: forgetful\ntitle: Forgets\nperson: []\n');
      expect(() => loadScenarioFile(file)).toThrow(ScenarioFileError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
