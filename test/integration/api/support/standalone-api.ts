import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitFor } from '@lomo/bus/testing';
import { SqliteEventStore } from '@lomo/eventstore';

const root = path.resolve(__dirname, '../../../..');

export interface GraphqlError {
  message: string;
  extensions?: Record<string, unknown> & { code?: string };
  path?: Array<string | number>;
}

export interface GraphqlResponse<T> {
  status: number;
  headers: Headers;
  data?: T | null;
  errors?: GraphqlError[];
}

/** The embedded backend as `npm start` runs it, on an ephemeral port and a fresh data directory. */
export interface RunningApi {
  url: string;
  dataDir: string;
  /** Logged at start outside production; '' in production (create one with `createToken`). */
  devToken: string;
  lines: Record<string, unknown>[];
  /** POST /graphql with a JSON body and an optional bearer token. */
  post(body: unknown, token?: string, headers?: Record<string, string>): Promise<Response>;
  gql<T>(token: string | undefined, query: string, variables?: Record<string, unknown>): Promise<GraphqlResponse<T>>;
  /** `lomo tokens ...` against the app's data directory, as a separate process. */
  tokens(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** The event store's head position, read from the file by this (other) process. */
  headPosition(): Promise<string | undefined>;
  /** Settles when the process has exited, however it ended (it may kill itself, as crash drills' entries do). */
  exited: Promise<ProcessExit>;
  /** SIGKILL (unless it is gone already) and wait for the exit; the data directory is kept. */
  kill(): Promise<ProcessExit>;
  /** SIGTERM, then SIGKILL after 15 s; deletes the data directory unless started with `keepDataDir`. */
  stop(): Promise<void>;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StandaloneStartOptions {
  /** Another entry file than the standalone's own (e.g. one binding test fakes), relative to the repo root. */
  entry?: string;
  /**
   * An existing data directory to start on (a restart after a kill) instead of a fresh one. It is
   * the caller's: kept on stop and on a failed start, unless `keepDataDir` is false.
   */
  dataDir?: string;
  /** Keep the data directory on stop (default: true for a given `dataDir`, false for a fresh one). */
  keepDataDir?: boolean;
}

function collectJsonLines(child: ChildProcessWithoutNullStreams): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const p of parts) if (p.startsWith('{')) lines.push(JSON.parse(p) as Record<string, unknown>);
  });
  return lines;
}

function run(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['-r', './scripts/register.cjs', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function startStandaloneApi(
  extraEnv: Record<string, string> = {},
  options: StandaloneStartOptions = {},
): Promise<RunningApi> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'lomo-api-'));
  const keepDataDir = options.keepDataDir ?? options.dataDir !== undefined;
  const removeDataDir = () => {
    if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const env = {
    PORT: '0',
    LOMO_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    LOMO_MODE: 'embedded',
    ...extraEnv,
  };
  const entry = options.entry ?? 'apps/standalone/src/main.ts';
  const child = spawn(process.execPath, ['-r', './scripts/register.cjs', entry], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const lines = collectJsonLines(child);
  const exited = new Promise<ProcessExit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  try {
    await waitFor(
      () =>
        child.exitCode !== null || child.signalCode !== null || lines.some((l) => l.msg === 'lomo standalone started'),
      'standalone start',
      60_000,
    );
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`standalone exited: ${stderr}`);
    if (env.NODE_ENV !== 'production') {
      await waitFor(() => lines.some((l) => typeof l.devToken === 'string'), 'dev token in the logs', 10_000);
    }
  } catch (error) {
    child.kill('SIGKILL');
    removeDataDir();
    throw error;
  }
  const url = String(lines.find((l) => l.msg === 'lomo standalone started')?.url);
  const devToken = String(lines.find((l) => typeof l.devToken === 'string')?.devToken ?? '');

  const post = (body: unknown, token?: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  return {
    url,
    dataDir,
    devToken,
    lines,
    post,
    async gql<T>(token: string | undefined, query: string, variables?: Record<string, unknown>) {
      const response = await post({ query, ...(variables ? { variables } : {}) }, token);
      const body = (await response.json()) as { data?: T | null; errors?: GraphqlError[] };
      return { status: response.status, headers: response.headers, ...body };
    },
    tokens: (args) => run(['apps/cli/src/main.ts', '--json', 'tokens', ...args], { LOMO_DATA_DIR: dataDir }),
    async headPosition() {
      const store = new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') });
      try {
        return await store.headPosition();
      } finally {
        await store.close();
      }
    },
    exited,
    async kill() {
      // Both are null while it runs; a process killed by a signal has only signalCode set.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
        clearTimeout(timer);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      removeDataDir();
    },
  };
}

/** A new API token of another workspace or user, created with the CLI. */
export async function createToken(
  api: RunningApi,
  workspaceId: string,
  userId: string,
): Promise<{ id: string; token: string }> {
  const result = await api.tokens(['create', '--workspace', workspaceId, '--user', userId, '--name', 'test']);
  if (result.code !== 0) throw new Error(`lomo tokens create failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as { id: string; token: string };
}

/** Repeats a read until `accept` holds (the read models catch up asynchronously). */
export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  let last: T | undefined;
  await waitFor(
    async () => {
      last = await read();
      return accept(last);
    },
    what,
    timeoutMs,
    // Polls over HTTP stay well under the per-token rate limit.
    250,
  );
  return last as T;
}
