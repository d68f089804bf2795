import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../support/child-process';

/** The apps a drill can start, by their entry point `apps/<app>/src/main.ts`. */
export type AppName = 'api' | 'router' | 'executor' | 'projector' | 'relay' | 'notifier' | 'generation' | 'standalone';

/** One JSON log line of an app (pino), as printed on stdout. */
export interface LogLine {
  level?: string | number;
  msg?: string;
  [field: string]: unknown;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const STDERR_KEPT = 20_000;
const ORPHAN_GUARD = './test/distributed/multi-process/orphan-guard.ts';

/** The drills' executor records every real tool effect in DRILL_EFFECT_LOG (an entry file of the drills). */
const EXECUTOR_WITH_EFFECT_LOG = './test/distributed/multi-process/entries/executor-with-effect-log.ts';

export const appEntry = (app: AppName, env: Record<string, string> = {}): string =>
  app === 'executor' && env.DRILL_EFFECT_LOG !== undefined ? EXECUTOR_WITH_EFFECT_LOG : `apps/${app}/src/main.ts`;
export const appExists = (app: AppName): boolean => existsSync(join(repoRoot, appEntry(app)));

/** The command line of an app: from source (register.cjs, the orphan guard) or the built `dist/apps/<app>/main.js`. */
const appArgv = (app: AppName, env: Record<string, string>, built: boolean): string[] =>
  built
    ? [join(repoRoot, 'dist/apps', app, 'main.js')]
    : ['-r', './scripts/register.cjs', '-r', ORPHAN_GUARD, appEntry(app, env)];

/**
 * One app as its own OS process, run from source like `node -r ./scripts/register.cjs
 * apps/<app>/src/main.ts`, with its JSON log lines collected as they come.
 */
export class AppProcess {
  readonly lines: LogLine[] = [];
  /** Non-JSON stdout lines (a crash trace, a stray print), kept for failure messages. */
  readonly otherLines: string[] = [];
  readonly exited: Promise<ExitStatus>;
  url: string | undefined;
  private stderr = '';
  private exitStatus: ExitStatus | undefined;
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly app: AppName,
    env: Record<string, string>,
    /** Run the built app of dist/ (`npm run build`) rather than its source. */
    built = false,
  ) {
    this.child = spawn(process.execPath, appArgv(app, env, built), {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exitStatus = { code, signal };
        this.notify();
        resolve(this.exitStatus);
      }),
    );
    // DRILL_LOG_DIR=<dir> keeps every process's full output for a post-mortem.
    const logDir = process.env.DRILL_LOG_DIR;
    let file: WriteStream | undefined;
    if (logDir) {
      mkdirSync(logDir, { recursive: true });
      file = createWriteStream(join(logDir, `${name}.${this.child.pid}.log`), { flags: 'a' });
      this.child.once('exit', () => file?.end());
    }
    this.child.stderr?.on('data', (chunk: Buffer) => {
      file?.write(chunk);
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    createInterface({ input: this.child.stdout! }).on('line', (text) => {
      file?.write(`${text}\n`);
      const parsed = parseLogLine(text);
      if (parsed === undefined) this.otherLines.push(text);
      else this.lines.push(parsed);
      this.notify();
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitStatus === undefined;
  }

  /**
   * The first log line (already printed or still to come) that matches. Fails after timeoutMs,
   * or at once when the process exits first, with the tail of its stderr in the message.
   */
  waitForLog(match: (line: LogLine) => boolean, what: string, timeoutMs: number): Promise<LogLine> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.lines.find(match);
        if (found !== undefined) return finish(() => resolve(found));
        if (this.exitStatus !== undefined) {
          return finish(() =>
            reject(
              new Error(`${this.name} exited ${JSON.stringify(this.exitStatus)} before ${what}\n${this.diagnostics()}`),
            ),
          );
        }
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new Error(`${this.name}: timed out after ${timeoutMs} ms waiting for ${what}\n${this.diagnostics()}`),
            ),
          ),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Waits for `lomo <app> started` and keeps the URL it announced. */
  async started(timeoutMs: number): Promise<string> {
    const line = await this.waitForLog((l) => l.msg === `lomo ${this.app} started`, 'its start', timeoutMs);
    this.url = String(line.url);
    return this.url;
  }

  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL if it has not exited within graceMs. SIGCONT first, in case it was paused. */
  async stop(graceMs = 10_000): Promise<ExitStatus> {
    if (!this.running) return this.exitStatus!;
    this.child.kill('SIGCONT');
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (this.running) this.child.kill('SIGKILL');
    return this.exited;
  }

  /** Kills at once; the synchronous path for the runner's own exit. */
  killNow(): void {
    if (!this.running) return;
    this.child.kill('SIGCONT');
    this.child.kill('SIGKILL');
  }

  /** What to print when something about this process went wrong. */
  diagnostics(): string {
    const errors = this.lines
      .filter((l) => l.level === 'error' || l.level === 'fatal' || l.level === 50 || l.level === 60)
      .slice(-5)
      .map((l) => JSON.stringify(l));
    return [
      `-- ${this.name} (${this.app}, pid ${this.pid}) last error lines:`,
      ...errors,
      ...this.otherLines.slice(-5),
      `-- stderr tail:`,
      this.stderr.slice(-3_000),
    ].join('\n');
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

function parseLogLine(text: string): LogLine | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as LogLine) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The environment of an app process: the runner's own, minus every LOMO_* and Kafka/Mongo
 * variable (the config refuses unknown LOMO_* names, and a developer's shell must not leak into
 * a drill), plus the cluster's base settings and the app's own.
 */
function appEnv(base: Record<string, string>, own: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(LOMO_|KAFKA_|MONGODB_|EVENTSTORE_|OPENAI_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...base, ...own };
}

/**
 * A set of named app processes sharing base settings. Every process it starts is killed by
 * `stopAll` (call it from afterAll), and synchronously if the runner exits first; the orphan
 * guard covers a runner that is killed outright.
 */
export class Cluster {
  private readonly processes = new Map<string, AppProcess>();
  private readonly all: AppProcess[] = [];
  private readonly onExit = () => {
    for (const p of this.all) p.killNow();
  };

  /** `built`: the apps of dist/ (the end-to-end drills' choice, as `npm start` runs them), without the orphan guard. */
  constructor(
    private readonly base: Record<string, string>,
    private readonly options: { built?: boolean } = {},
  ) {
    process.on('exit', this.onExit);
  }

  /** Starts the app under `name` (a name may be reused once its previous process has exited). */
  spawn(name: string, app: AppName, env: Record<string, string> = {}): AppProcess {
    const previous = this.processes.get(name);
    if (previous?.running) throw new Error(`${name} is already running`);
    const child = new AppProcess(name, app, appEnv(this.base, env), this.options.built === true);
    this.processes.set(name, child);
    this.all.push(child);
    return child;
  }

  /** Starts the app and waits for its `started` line. */
  async start(name: string, app: AppName, env: Record<string, string> = {}, timeoutMs = 90_000): Promise<AppProcess> {
    const child = this.spawn(name, app, env);
    await child.started(timeoutMs);
    return child;
  }

  get(name: string): AppProcess {
    const found = this.processes.get(name);
    if (found === undefined) throw new Error(`no process named ${name}`);
    return found;
  }

  /** Every process ever started (also the killed ones), oldest first. */
  get history(): readonly AppProcess[] {
    return this.all;
  }

  /** Stops every running process (SIGTERM, SIGKILL after graceMs), all at once. */
  async stopAll(graceMs = 10_000): Promise<void> {
    await Promise.all(this.all.map((p) => p.stop(graceMs)));
    process.off('exit', this.onExit);
  }

  /** Diagnostics of every process, for a failure message. */
  diagnostics(): string {
    return this.all.map((p) => p.diagnostics()).join('\n');
  }
}
