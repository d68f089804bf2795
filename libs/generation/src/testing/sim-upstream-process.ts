import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { SimulatedUpstreamControl } from '../simulated';

const root = path.resolve(__dirname, '../../../..');

export interface SimUpstreamProcess {
  url: string;
  port: number;
  stateFile: string;
  child: ChildProcess;
  /** JSON log lines printed so far. */
  lines: Array<Record<string, unknown>>;
  /** POST /control; returns its answer. */
  control(body: SimulatedUpstreamControl): Promise<Record<string, unknown>>;
  counters(): Promise<Record<string, number>>;
  /** SIGTERM (clean) or SIGKILL (crash); resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it (SIGKILL by default) and starts a new process on the same port and state file. */
  restart(signal?: NodeJS.Signals): Promise<SimUpstreamProcess>;
  /** Stops it and removes its temp directory (when the helper made one). */
  dispose(): Promise<void>;
}

export interface SimUpstreamProcessOptions {
  port?: number;
  stateFile?: string;
  seed?: number;
  start?: SimulatedUpstreamControl;
  env?: Record<string, string>;
  /** Run dist/apps/sim-upstream/main.js (after `npm run build`) instead of the TypeScript source. */
  useDist?: boolean;
  readyTimeoutMs?: number;
}

/**
 * Starts apps/sim-upstream as a child process (`node -r ./scripts/register.cjs
 * apps/sim-upstream/src/main.ts`, or the built dist) and waits for its "sim-upstream listening" line.
 */
export async function startSimUpstreamProcess(options: SimUpstreamProcessOptions = {}): Promise<SimUpstreamProcess> {
  const ownDir = options.stateFile ? undefined : mkdtempSync(path.join(tmpdir(), 'sim-upstream-'));
  const stateFile = options.stateFile ?? path.join(ownDir!, 'state.json');
  const dist = path.join(root, 'dist/apps/sim-upstream/main.js');
  if (options.useDist && !existsSync(dist)) throw new Error(`${dist} is missing: run npm run build first`);
  const args = options.useDist
    ? [dist]
    : ['-r', path.join(root, 'scripts/register.cjs'), path.join(root, 'apps/sim-upstream/src/main.ts')];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      SIM_UPSTREAM_PORT: String(options.port ?? 0),
      SIM_UPSTREAM_STATE_FILE: stateFile,
      SIM_UPSTREAM_SEED: String(options.seed ?? 1),
      SIM_UPSTREAM_CONFIG: JSON.stringify(options.start ?? {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('sim-upstream printed no ready line')),
      options.readyTimeoutMs ?? 20_000,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      lines.push(parsed);
      if (parsed.msg === 'sim-upstream listening') {
        clearTimeout(timer);
        resolve(parsed.port as number);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error('sim-upstream exited before it was ready'));
    });
  });
  const port = await ready;
  const url = `http://127.0.0.1:${port}`;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    port,
    stateFile,
    child,
    lines,
    async control(body) {
      const res = await fetch(`${url}/control`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`POST /control: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    },
    async counters() {
      return (await (await fetch(`${url}/control/counters`)).json()) as Record<string, number>;
    },
    stop,
    async restart(signal: NodeJS.Signals = 'SIGKILL') {
      await stop(signal);
      return startSimUpstreamProcess({ ...options, port, stateFile });
    },
    async dispose() {
      await stop();
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}
