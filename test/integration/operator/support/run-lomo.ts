import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../../..');

export interface LomoRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `lomo ...` as an operator runs it: its own process on the app's data directory. From the
 * sources (`npm run lomo`) by default; `dist: true` runs the built `dist/apps/cli/main.js`.
 */
export function runLomo(
  args: readonly string[],
  env: Record<string, string>,
  options: { dist?: boolean; stdin?: string } = {},
): Promise<LomoRun> {
  const argv = options.dist
    ? [path.join(root, 'dist/apps/cli/main.js'), ...args]
    : ['-r', './scripts/register.cjs', 'apps/cli/src/main.ts', ...args];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The JSON lines of a `--json` run's stdout. */
export const jsonLines = <T = Record<string, unknown>>(stdout: string): T[] =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{') || l.startsWith('['))
    .map((l) => JSON.parse(l) as T);

/** Every file under a directory with its size and SHA-256: "the data directory is unchanged". */
export function snapshotDirectory(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else
        files[path.relative(dir, full)] =
          `${statSync(full).size}:${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
    }
  };
  walk(dir);
  return files;
}
