import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../../..');

export interface LintMessage {
  ruleId: string | null;
  message: string;
}

export interface LintResult {
  filePath: string;
  messages: LintMessage[];
}

const eslintBin = path.join(repoRoot, 'node_modules/eslint/bin/eslint.js');

// ESLint runs as its own process: its flat config loads through dynamic import, which jest's VM lacks.
function eslint(args: string[], input?: string): LintResult[] {
  const run = spawnSync(process.execPath, [eslintBin, '--format', 'json', ...args], {
    cwd: repoRoot,
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.stdout === '') throw new Error(`eslint printed nothing: ${run.stderr}`);
  return JSON.parse(run.stdout) as LintResult[];
}

/** Lints `source` as if it were the file at `filePath` (relative to the repository root). */
export function lintSource(filePath: string, source: string): LintMessage[] {
  const [result] = eslint(['--stdin', '--stdin-filename', filePath], source);
  return result.messages;
}

/** Lints the given folders of the repository as CI does. */
export function lintTree(folders: string[]): LintResult[] {
  return eslint(folders);
}
