import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import * as path from 'node:path';

/** The repository root: the drills run the built apps of `dist/`, as `npm start` does. */
export const REPO_ROOT = path.resolve(__dirname, '../../..');
const STANDALONE = path.join(REPO_ROOT, 'dist/apps/standalone/main.js');
const CLI = path.join(REPO_ROOT, 'dist/apps/cli/main.js');

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface DrillAppOptions {
  /** Extra environment on top of the drill defaults (test-control switches, the model provider). */
  env?: Record<string, string>;
  /** Start on this data directory (kept); default a fresh temporary one (removed by `dispose`). */
  dataDir?: string;
  startTimeoutMs?: number;
}

/**
 * What the drill harness drives (run-scenario.ts, scripted-person.ts, fault-runs.ts): the built
 * standalone app (`DrillApp`) or the distributed apps (test/distributed/drills/distributed-drill-app.ts),
 * the same drill either way. `url` serves GraphQL and /test-control; `dataDir` holds the event
 * log (`events.sqlite`), the archived prompts (`blobs/`) and the simulated upstream's state
 * (`sim-upstream/state.json`) the metrics and the fault evidence are read from after `stop()`.
 */
export interface DrillTarget {
  readonly dataDir: string;
  readonly env: Record<string, string>;
  readonly url: string;
  readonly running: boolean;
  /** JSON log lines of the process serving `url` (since its last start). */
  readonly lines: Record<string, unknown>[];
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGKILL (every process of the deployment). */
  kill(): Promise<ProcessExit>;
  /**
   * Kill (or stop, or wait for the crash a test-control crash point causes), then start again on
   * the same data; resolves with how the process (the API's, on the distributed apps) ended.
   */
  restart(how?: 'kill' | 'stop' | 'crashed', crashTimeoutMs?: number): Promise<ProcessExit>;
  /** Told each JSON log line of the process that runs the model steps, where the target sees it. */
  readonly lineListeners?: Set<(line: Record<string, unknown>) => void>;
  createToken(workspace: string, user: string, kind: 'person' | 'operator'): Promise<string>;
  dispose(keepDataDir?: boolean): Promise<void>;
  /**
   * SIGKILL only the generation service and start it again, the rest of the deployment running on
   * (the distributed apps). Absent on the standalone app, whose generation service is in-process:
   * the `generation-restart` fault restarts the whole app there.
   */
  restartGeneration?(): Promise<void>;
}

/**
 * Builds dist/ once per process: the drills start the built standalone, never the sources. Apps
 * started side by side (the fault runs start several at once) share one build promise; the build
 * itself skips when dist/ is up to date and swaps a fresh one in otherwise (scripts/build.cjs).
 */
let building: Promise<void> | undefined;
let built = false;
export function buildOnce(): Promise<void> {
  // Rebuild only after a finished build lost its output (someone cleaned dist/), never mid-build.
  if (building === undefined || (built && !existsSync(STANDALONE))) {
    built = false;
    building = build();
  }
  return building;
}

async function build(): Promise<void> {
  const result = await runNode([path.join(REPO_ROOT, 'scripts/build.cjs')], {});
  if (result.code !== 0) {
    building = undefined;
    throw new Error(`node scripts/build.cjs failed: ${result.stderr}`);
  }
  built = true;
}

export function runNode(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The built standalone app (`node dist/apps/standalone/main.js`) as a child process on one data
 * directory and an ephemeral port. It can be stopped, SIGKILLed and started again on the same
 * directory: the fault drills restart it mid-step and the metrics still read one log.
 */
export class DrillApp implements DrillTarget {
  readonly dataDir: string;
  readonly env: Record<string, string>;
  private readonly ownsDataDir: boolean;
  private child: ChildProcessWithoutNullStreams | undefined;
  private exited: Promise<ProcessExit> | undefined;
  private stderrTail = '';
  /** The JSON log lines of the current process (the start line carries the URL). */
  lines: Record<string, unknown>[] = [];
  /** Called with each JSON log line as it comes (the cost cap watches for a refused model call). */
  readonly lineListeners = new Set<(line: Record<string, unknown>) => void>();
  url = '';
  /** Starts of the process so far (1 after the first start, 2 after a restart…). */
  starts = 0;

  constructor(private readonly options: DrillAppOptions = {}) {
    this.ownsDataDir = options.dataDir === undefined;
    this.dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'lomo-drill-'));
    this.env = {
      // A fixed free port rather than PORT=0: the simulated upstream calls back on the app's
      // public URL, which is built from PORT; with 0 the callbacks are lost and every job waits
      // for the 30 s compensation poll. A restart keeps the port, so clients reconnect.
      PORT: '',
      LOMO_DATA_DIR: this.dataDir,
      LOMO_MODE: 'embedded',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      LOMO_MODEL_PROVIDER: 'offline',
      // The simulated clock (scenarios span days) and the fault and mutation switches.
      LOMO_TEST_CONTROL: 'on',
      // The drills' person sends bursts of reads while waiting; the per-token limit is for abuse.
      LOMO_API_RATE_LIMIT_BURST: '10000',
      LOMO_API_RATE_LIMIT_PER_SECOND: '1000',
      ...options.env,
    };
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    if (this.running) throw new Error('the drill app is running already');
    await buildOnce();
    if (this.env.PORT === '') this.env.PORT = String(await freePort());
    this.lines = [];
    this.stderrTail = '';
    const child = spawn(process.execPath, [STANDALONE], { cwd: REPO_ROOT, env: { ...process.env, ...this.env } });
    this.child = child;
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.stderr.on('data', (c: Buffer) => (this.stderrTail = (this.stderrTail + c.toString()).slice(-4000)));
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const p of parts) {
        if (!p.startsWith('{')) continue;
        try {
          const line = JSON.parse(p) as Record<string, unknown>;
          this.lines.push(line);
          for (const listen of this.lineListeners) listen(line);
        } catch {
          // A log line cut by a SIGKILL is no start line; skip it.
        }
      }
    });
    const deadline = Date.now() + (this.options.startTimeoutMs ?? 60_000);
    for (;;) {
      const started = this.lines.find((l) => l.msg === 'lomo standalone started');
      if (started !== undefined) {
        this.url = String(started.url);
        break;
      }
      if (!this.running) throw new Error(`the standalone app exited at start: ${this.stderrTail}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the standalone app did not start within the timeout: ${this.stderrTail}`);
      }
      await sleep(50);
    }
    this.starts += 1;
  }

  /** SIGKILL (a crash mid-step); the data directory stays for a restart. */
  async kill(): Promise<ProcessExit> {
    if (this.running) this.child!.kill('SIGKILL');
    return this.exited ?? { code: null, signal: null };
  }

  /** SIGTERM, then SIGKILL after 15 s; the data directory stays. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
    clearTimeout(timer);
    if (this.running) this.child!.kill('SIGKILL');
    await this.exited;
  }

  /**
   * Waits for the process to end by itself (a crash fault it fired) and says how it ended;
   * undefined when it is still running after `timeoutMs` (left running).
   */
  async exitWithin(timeoutMs: number): Promise<ProcessExit | undefined> {
    if (this.exited === undefined) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      this.exited,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs))),
    ]);
    clearTimeout(timer);
    return exit;
  }

  /**
   * Kill (or stop), then start again on the same data directory (the port is kept). `crashed`:
   * the process has ended by itself or does within `crashTimeoutMs` (a crash fault it fired); it
   * must have died of a SIGKILL, as a crash point kills.
   */
  async restart(how: 'kill' | 'stop' | 'crashed' = 'kill', crashTimeoutMs = 120_000): Promise<ProcessExit> {
    let exit: ProcessExit;
    if (how === 'crashed') {
      const ended = await this.exitWithin(crashTimeoutMs);
      if (ended === undefined) throw new Error(`the app did not crash within ${crashTimeoutMs} ms (still running)`);
      if (ended.signal !== 'SIGKILL')
        throw new Error(
          `the app ended by ${ended.signal ?? `exit code ${String(ended.code)}`}, not a crash point's SIGKILL: ${this.stderrTail}`,
        );
      exit = ended;
    } else if (how === 'kill') exit = await this.kill();
    else {
      await this.stop();
      exit = (await this.exited) ?? { code: null, signal: null };
    }
    await this.start();
    return exit;
  }

  /** `lomo <args>` of the built CLI on this data directory (runs beside the app, as an operator does). */
  cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return runNode([CLI, ...args], { LOMO_DATA_DIR: this.dataDir, LOMO_MODE: 'embedded' });
  }

  /** A new API token via `lomo tokens create --json`. */
  async createToken(workspace: string, user: string, kind: 'person' | 'operator'): Promise<string> {
    const run = await this.cli([
      '--json',
      'tokens',
      'create',
      '--workspace',
      workspace,
      '--user',
      user,
      '--name',
      `drill-${user}`,
      '--kind',
      kind,
    ]);
    if (run.code !== 0) throw new Error(`lomo tokens create (${kind}) failed: ${run.stderr}`);
    return (JSON.parse(run.stdout.trim()) as { token: string }).token;
  }

  /** Stops the app and removes a data directory the app created. */
  async dispose(keepDataDir = false): Promise<void> {
    await this.stop();
    if (this.ownsDataDir && !keepDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A port nobody listens on now (the OS picks it; released before the app binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
