import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '@lomo/observability';

/** Where apps/sim-upstream's entry is: the built one beside this build, else the TypeScript source. */
function simUpstreamCommand(): string[] {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const built = path.join(dir, 'dist/apps/sim-upstream/main.js');
  if (__filename.endsWith('.js') && existsSync(built)) return [built];
  return ['-r', path.join(dir, 'scripts/register.cjs'), path.join(dir, 'apps/sim-upstream/src/main.ts')];
}

export interface SimUpstreamChild {
  url: string;
  stop(): Promise<void>;
}

/**
 * Embedded mode's simulated media upstream: apps/sim-upstream as a child process (a separate
 * service with its own state file, as the design has it), on a free port, calling back the
 * callback route of this process. Stopped with the app; jobs live on in the state file.
 */
export async function startSimUpstreamChild(options: {
  dataDir: string;
  callbackUrl: string;
  callbackSecret: string;
  logger: Logger;
  readyTimeoutMs?: number;
  /**
   * Drills' callback faults on from the child's first instant: a restarted upstream resumes its
   * jobs at once, and a callback it sent before the app forwarded the faults would get through.
   */
  faults?: { duplicateCallbacks: boolean; lostCallbacks: boolean };
}): Promise<SimUpstreamChild> {
  const dir = path.join(options.dataDir, 'sim-upstream');
  mkdirSync(dir, { recursive: true });
  const child: ChildProcess = spawn(process.execPath, simUpstreamCommand(), {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'info',
      SIM_UPSTREAM_PORT: '0',
      SIM_UPSTREAM_HOST: '127.0.0.1',
      SIM_UPSTREAM_STATE_FILE: path.join(dir, 'state.json'),
      SIM_UPSTREAM_CALLBACK_URL: options.callbackUrl,
      SIM_UPSTREAM_CALLBACK_SECRET: options.callbackSecret,
      // The child leaves when this process dies (its stdin closes), even by SIGKILL.
      SIM_UPSTREAM_EXIT_WITH_PARENT: '1',
      ...(options.faults === undefined ? {} : { SIM_UPSTREAM_CONFIG: JSON.stringify({ faults: options.faults }) }),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('sim-upstream printed no ready line')),
      options.readyTimeoutMs ?? 30_000,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      try {
        const parsed = JSON.parse(line) as { msg?: string; port?: number };
        if (parsed.msg === 'sim-upstream listening' && typeof parsed.port === 'number') {
          clearTimeout(timer);
          resolve(parsed.port);
        }
      } catch {
        // not a log line of ours
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error('sim-upstream exited before it was ready'));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  options.logger.info({ component: 'generation', simUpstream: url }, 'simulated media upstream started');
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
