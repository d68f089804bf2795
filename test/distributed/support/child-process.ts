import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const repoRoot = join(__dirname, '..', '..', '..');

/** A TypeScript entry point run as a child process, with its stdout read line by line. */
export class TsChild {
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private readonly waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];

  constructor(script: string, args: readonly string[]) {
    this.child = spawn(process.execPath, ['-r', './scripts/register.cjs', script, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      for (let i = this.waiters.length - 1; i >= 0; i -= 1) {
        if (this.waiters[i].match(line)) this.waiters.splice(i, 1)[0].resolve(line);
      }
    });
  }

  /** The first line (already printed or still to come) that matches, or a failure after timeoutMs. */
  waitForLine(match: (line: string) => boolean, what: string, timeoutMs: number): Promise<string> {
    const seen = this.lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)),
        timeoutMs,
      );
      this.waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      // The child may die first; then no line will ever come.
      void this.exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`child exited (code ${code}, signal ${signal}) before ${what}`));
      });
    });
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}
