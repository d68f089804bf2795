import { hostname } from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  testCrashFaultNames,
  testFaultNames,
  testMutationNames,
  type TestFault,
  type TestMutation,
} from '@lomo/contracts';
import { configShape, configVariables, type ConfigKey } from './config.schema';

/**
 * Read elsewhere, not by the apps: LOMO_CACHE_DIR by scripts/infra, LOMO_TOKEN by the `lomo` CLI
 * (apps/cli/README.md: the token it acts as), so a shell that exports it can still start an app.
 */
const scriptOnly = new Set(['LOMO_CACHE_DIR', 'LOMO_TOKEN']);

type Raw = z.infer<z.ZodObject<typeof configShape>>;

export type LomoConfig = Omit<
  Raw,
  | 'LOMO_SQLITE_PATH'
  | 'LOMO_BUS_PATH'
  | 'LOMO_BLOB_DIR'
  | 'LOMO_WORKER_ID'
  | 'LOMO_AUTH_SQLITE_PATH'
  | 'LOMO_AUTH_TOKEN_CACHE_MS'
  | 'LOMO_PROJECTOR_FEED'
  | 'LOMO_BLOB_STORE'
  | 'LOMO_TOOLS_STORE'
  | 'LOMO_TEST_FAULTS'
  | 'LOMO_TEST_MUTATIONS'
> & {
  /** Parsed from the comma lists; empty unless LOMO_TEST_CONTROL=on (libs/platform/src/test-control). */
  LOMO_TEST_FAULTS: readonly TestFault[];
  LOMO_TEST_MUTATIONS: readonly TestMutation[];
  LOMO_BLOB_STORE: 'filesystem' | 'mongodb';
  LOMO_TOOLS_STORE: 'sqlite' | 'mongodb';
  LOMO_AUTH_TOKEN_CACHE_MS: number;
  LOMO_PROJECTOR_FEED: 'bus' | 'store';
  LOMO_SQLITE_PATH: string;
  LOMO_BUS_PATH: string;
  LOMO_BLOB_DIR: string;
  LOMO_WORKER_ID: string;
  /**
   * Whether LOMO_WORKER_ID was set. When it was not, LOMO_WORKER_ID is `<hostname>-<pid>`, which
   * changes on every restart; embedded mode then uses an id persisted in the data directory instead
   * (libs/application/src/executor/executor-identity.ts).
   */
  workerIdFromEnv: boolean;
  LOMO_AUTH_SQLITE_PATH: string;
  LOMO_READ_MODELS_PATH: string;
  LOMO_NOTIFIER_SQLITE_PATH: string;
};

/**
 * Reads and validates the environment once, at start. A wrong value stops the start with a
 * message naming the variable; unknown LOMO_* variables are refused too (typos fail fast).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): LomoConfig {
  const input: Record<string, string> = {};
  for (const key of Object.keys(configShape) as ConfigKey[]) {
    const value = env[key];
    const fallback = configVariables[key].default;
    if (value !== undefined && value !== '') input[key] = value;
    // Defaults written as $VAR or <placeholder> are computed below, not parsed.
    else if (fallback !== undefined && !/[$<]/.test(fallback)) input[key] = fallback;
  }
  const problems: { variable: string; message: string }[] = [];
  const unknown = Object.keys(env).filter((k) => k.startsWith('LOMO_') && !(k in configShape) && !scriptOnly.has(k));
  for (const variable of unknown) problems.push({ variable, message: 'unknown variable (typo?)' });

  const parsed = z.object(configShape).safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0]);
      const got = configVariables[variable as ConfigKey]?.secret
        ? `a value of ${input[variable]?.length ?? 0} characters, not shown`
        : JSON.stringify(input[variable]);
      problems.push({ variable, message: `${issue.message} (got ${got})` });
    }
  }
  if (parsed.success) {
    const c = parsed.data;
    if (c.LOMO_BUS === 'kafka' && !c.KAFKA_BROKERS)
      problems.push({ variable: 'KAFKA_BROKERS', message: 'required when LOMO_BUS=kafka' });
    if (c.LOMO_EVENTSTORE === 'eventstoredb' && !c.EVENTSTORE_URL) {
      problems.push({ variable: 'EVENTSTORE_URL', message: 'required when LOMO_EVENTSTORE=eventstoredb' });
    }
    if (c.LOMO_MODEL_PROVIDER === 'openai' && !c.OPENAI_API_KEY) {
      problems.push({ variable: 'OPENAI_API_KEY', message: 'required when LOMO_MODEL_PROVIDER=openai' });
    }
    if (c.LOMO_GENERATION_PROVIDER === 'openai' && !c.OPENAI_API_KEY) {
      problems.push({ variable: 'OPENAI_API_KEY', message: 'required when LOMO_GENERATION_PROVIDER=openai' });
    }
    if (c.LOMO_SIM_UPSTREAM_URL !== undefined && !c.LOMO_GENERATION_CALLBACK_SECRET) {
      problems.push({
        variable: 'LOMO_GENERATION_CALLBACK_SECRET',
        message: 'required with LOMO_SIM_UPSTREAM_URL (the upstream signs its callbacks with it)',
      });
    }
    if (c.LOMO_EMBEDDING_PROVIDER === 'openai' && !c.OPENAI_API_KEY) {
      problems.push({ variable: 'OPENAI_API_KEY', message: 'required when LOMO_EMBEDDING_PROVIDER=openai' });
    }
    if (c.LOMO_WEBHOOK_BACKOFF_MAX_MS < c.LOMO_WEBHOOK_BACKOFF_INITIAL_MS) {
      problems.push({
        variable: 'LOMO_WEBHOOK_BACKOFF_MAX_MS',
        message: 'must be at least LOMO_WEBHOOK_BACKOFF_INITIAL_MS',
      });
    }
    for (const variable of ['LOMO_BLOB_STORE', 'LOMO_TOOLS_STORE'] as const) {
      if (c[variable] === 'mongodb' && !c.MONGODB_URL)
        problems.push({ variable, message: 'mongodb needs MONGODB_URL' });
    }
    problems.push(...testControlProblems(c));
    if (c.KAFKA_HEARTBEAT_INTERVAL_MS * 3 > c.KAFKA_SESSION_TIMEOUT_MS) {
      problems.push({
        variable: 'KAFKA_HEARTBEAT_INTERVAL_MS',
        message: 'must be at most a third of KAFKA_SESSION_TIMEOUT_MS',
      });
    }
  }
  if (problems.length > 0 || !parsed.success) {
    throw new ConfigError(
      `Invalid configuration: ${problems.map((p) => `${p.variable}: ${p.message}`).join('; ')}`,
      problems,
    );
  }
  const c = parsed.data;
  const dataDir = path.resolve(c.LOMO_DATA_DIR);
  // Replicas of a distributed app share nothing on disk, so state every replica must see goes
  // where the read models already are; one host (embedded) keeps its files.
  const sharedStorage = c.LOMO_MODE === 'distributed' && c.MONGODB_URL !== undefined;
  return {
    ...c,
    LOMO_DATA_DIR: dataDir,
    LOMO_PROJECTOR_FEED: c.LOMO_PROJECTOR_FEED ?? (c.LOMO_MODE === 'embedded' ? 'store' : 'bus'),
    LOMO_SQLITE_PATH: c.LOMO_SQLITE_PATH ?? path.join(dataDir, 'events.sqlite'),
    LOMO_BUS_PATH: c.LOMO_BUS_PATH ?? path.join(dataDir, 'bus.sqlite'),
    LOMO_BLOB_DIR: c.LOMO_BLOB_DIR ?? path.join(dataDir, 'blobs'),
    LOMO_BLOB_STORE: c.LOMO_BLOB_STORE ?? (sharedStorage ? 'mongodb' : 'filesystem'),
    LOMO_TOOLS_STORE: c.LOMO_TOOLS_STORE ?? (sharedStorage ? 'mongodb' : 'sqlite'),
    LOMO_AUTH_SQLITE_PATH: c.LOMO_AUTH_SQLITE_PATH ?? path.join(dataDir, 'auth.sqlite'),
    // Embedded: one API process and the CLI on one file, so a revocation is seen at the next
    // request. Distributed: instances share MongoDB and may trust a lookup for up to 5 s
    // (libs/auth/src/caching-api-token-store.ts).
    LOMO_AUTH_TOKEN_CACHE_MS: c.LOMO_AUTH_TOKEN_CACHE_MS ?? (c.LOMO_MODE === 'embedded' ? 0 : 5_000),
    LOMO_READ_MODELS_PATH: c.LOMO_READ_MODELS_PATH ?? path.join(dataDir, 'read-models.sqlite'),
    LOMO_NOTIFIER_SQLITE_PATH: c.LOMO_NOTIFIER_SQLITE_PATH ?? path.join(dataDir, 'notifier.sqlite'),
    LOMO_TEST_FAULTS: namesOf(c.LOMO_TEST_FAULTS) as TestFault[],
    LOMO_TEST_MUTATIONS: namesOf(c.LOMO_TEST_MUTATIONS) as TestMutation[],
    workerIdFromEnv: c.LOMO_WORKER_ID !== undefined,
    LOMO_WORKER_ID:
      c.LOMO_WORKER_ID ??
      `${hostname()
        .replace(/[^A-Za-z0-9_.:-]/g, '-')
        .slice(0, 100)}-${process.pid}`,
  };
}

const namesOf = (list: string | undefined): string[] => [...new Set(list?.split(',') ?? [])];

/**
 * The test-control surface moves the clock and switches safeguards off: never in production, and
 * its other variables only with it on, so a stray LOMO_TEST_* cannot change a normal start.
 */
function testControlProblems(c: Raw): { variable: string; message: string }[] {
  const problems: { variable: string; message: string }[] = [];
  if (c.LOMO_TEST_CONTROL === 'on' && c.NODE_ENV === 'production')
    problems.push({
      variable: 'LOMO_TEST_CONTROL',
      message: 'test control (simulated clock, fault and mutation switches) is refused when NODE_ENV=production',
    });
  const lists = [
    ['LOMO_TEST_FAULTS', c.LOMO_TEST_FAULTS, testFaultNames],
    ['LOMO_TEST_MUTATIONS', c.LOMO_TEST_MUTATIONS, testMutationNames],
  ] as const;
  const others = ['LOMO_TEST_CLOCK_START', 'LOMO_TEST_FAULTS', 'LOMO_TEST_MUTATIONS'] as const;
  if (c.LOMO_TEST_CONTROL !== 'on')
    for (const variable of others)
      if (c[variable] !== undefined) problems.push({ variable, message: 'needs LOMO_TEST_CONTROL=on' });
  for (const [variable, list, known] of lists) {
    const unknown = namesOf(list).filter((name) => !(known as readonly string[]).includes(name));
    if (unknown.length > 0)
      problems.push({ variable, message: `unknown ${unknown.join(', ')} (known: ${known.join(', ')})` });
  }
  // A crash fault set at start would crash every restart on the same data directory again.
  const crashes = namesOf(c.LOMO_TEST_FAULTS).filter((name) =>
    (testCrashFaultNames as readonly string[]).includes(name),
  );
  if (crashes.length > 0)
    problems.push({
      variable: 'LOMO_TEST_FAULTS',
      message: `${crashes.join(', ')} is armed at run time only (POST /test-control/faults): from the environment every restart would crash again`,
    });
  return problems;
}
