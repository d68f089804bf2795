import { z } from 'zod';
import { defaultSimulatedCurrency, defaultSimulatedPrices } from './prices';

const price = z.number().int().nonnegative();

/** How the upstream behaves; fixed at start, changed at run time through POST /control. */
export const simulatedUpstreamConfigSchema = z.object({
  /** Time from submission to the terminal state. */
  latencyMs: z.number().int().nonnegative(),
  /** Progress callbacks between submission and the terminal one, evenly spaced over latencyMs. */
  progressTicks: z.number().int().min(0).max(100),
  /** Share of jobs that end `failed`, decided at submission with the seeded random. */
  failureRate: z.number().min(0).max(1),
  prices: z.object({ image: price, video: price, '3d': price, audio: price }).strict(),
  currency: z.string().length(3),
  /** Default callback target; a job may name its own (submit body `callbackUrl`). */
  callbackUrl: z.string().url().optional(),
  callbackSecret: z.string().min(1).optional(),
  /** When set, /v1 requests need `authorization: Bearer <apiKey>`. */
  apiKey: z.string().min(1).optional(),
});
export type SimulatedUpstreamConfig = z.infer<typeof simulatedUpstreamConfigSchema>;

const submitFailure = z.union([
  z.literal(429),
  z.literal(400),
  z.literal(401),
  z.literal(403),
  z.literal(500),
  z.literal(503),
  z.literal('refuse'),
]);

/** Fault switches (docs: the README of this folder, simulated-upstream.ts). */
export const simulatedUpstreamFaultsSchema = z.object({
  /** The job is created and persisted, then the submit request gets no answer (or a late one). */
  timeoutAfterCreate: z.boolean(),
  /** With timeoutAfterCreate: answer after this long; null = never (until the client hangs up). */
  timeoutAfterCreateMs: z.number().int().positive().nullable(),
  /** Every callback delivery is sent twice with the same event id. */
  duplicateCallbacks: z.boolean(),
  /** Progress callbacks are held and sent shuffled around the terminal one, one after it. */
  outOfOrderProgress: z.boolean(),
  /** No callback is sent at all: only polling finds the result. */
  lostCallbacks: z.boolean(),
  /** The next submit(s) fail with this status before any job is created; 'refuse' = ECONNREFUSED. */
  failNextSubmitWith: submitFailure.nullable(),
  failNextSubmitTimes: z.number().int().positive(),
  /** Retry-After (seconds) sent with a 429. */
  retryAfterSeconds: z.number().int().nonnegative(),
  /** How long the HTTP server keeps its listener closed for 'refuse'. */
  refuseMs: z.number().int().positive(),
  /** The next content download fails with this status. */
  failNextDownloadWith: z.union([z.literal(404), z.literal(500), z.literal(503)]).nullable(),
});
export type SimulatedUpstreamFaults = z.infer<typeof simulatedUpstreamFaultsSchema>;

export const defaultSimulatedUpstreamConfig: SimulatedUpstreamConfig = {
  latencyMs: 3000,
  progressTicks: 4,
  failureRate: 0,
  prices: defaultSimulatedPrices,
  currency: defaultSimulatedCurrency,
};

export const noSimulatedFaults: SimulatedUpstreamFaults = {
  timeoutAfterCreate: false,
  timeoutAfterCreateMs: null,
  duplicateCallbacks: false,
  outOfOrderProgress: false,
  lostCallbacks: false,
  failNextSubmitWith: null,
  failNextSubmitTimes: 1,
  retryAfterSeconds: 1,
  refuseMs: 1000,
  failNextDownloadWith: null,
};

/** Body of POST /control, and of the start configuration (SIM_UPSTREAM_CONFIG / --config). */
export const simulatedUpstreamControlSchema = z
  .object({
    config: simulatedUpstreamConfigSchema.partial().strict().optional(),
    faults: simulatedUpstreamFaultsSchema.partial().strict().optional(),
    /** Back to no faults before `faults` is applied. */
    resetFaults: z.boolean().optional(),
    /** Zeroes the request counters (jobs stay). */
    resetCounters: z.boolean().optional(),
  })
  .strict();
export type SimulatedUpstreamControl = z.infer<typeof simulatedUpstreamControlSchema>;

/** Everything apps/sim-upstream needs to start, read from the environment and the arguments. */
export interface SimulatedUpstreamSettings {
  host: string;
  port: number;
  stateFile: string;
  portFile?: string;
  seed: number;
  logLevel: string;
  start: SimulatedUpstreamControl;
}

const intFromString = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform((s) => Number(s));

/**
 * Env: SIM_UPSTREAM_HOST, SIM_UPSTREAM_PORT (0 = any free port), SIM_UPSTREAM_STATE_FILE,
 * SIM_UPSTREAM_PORT_FILE, SIM_UPSTREAM_SEED, SIM_UPSTREAM_LATENCY_MS, SIM_UPSTREAM_PROGRESS_TICKS,
 * SIM_UPSTREAM_FAILURE_RATE, SIM_UPSTREAM_CALLBACK_URL, SIM_UPSTREAM_CALLBACK_SECRET,
 * SIM_UPSTREAM_API_KEY, SIM_UPSTREAM_CONFIG (a POST /control body as JSON), LOG_LEVEL.
 * Arguments `--host= --port= --state-file= --port-file= --seed= --config=` win over the env.
 * Throws a readable Error on anything invalid: the app fails at start, not at the first request.
 */
export function parseSimulatedUpstreamSettings(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[] = [],
): SimulatedUpstreamSettings {
  const args: Record<string, string> = {};
  for (const arg of argv) {
    const m = /^--([a-z-]+)=(.*)$/s.exec(arg);
    if (!m) throw new Error(`sim-upstream: unknown argument ${JSON.stringify(arg)} (use --name=value)`);
    args[m[1]] = m[2];
  }
  const pick = (arg: string, name: string) => args[arg] ?? env[name];
  const dataDir = env.LOMO_DATA_DIR ?? '.data';
  const parseJson = (text: string | undefined): unknown => {
    if (text === undefined) return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error('sim-upstream: SIM_UPSTREAM_CONFIG / --config is not valid JSON');
    }
  };
  const start = simulatedUpstreamControlSchema.safeParse(parseJson(pick('config', 'SIM_UPSTREAM_CONFIG')));
  if (!start.success) throw new Error(`sim-upstream: invalid start configuration: ${z.prettifyError(start.error)}`);
  const fromEnv = z
    .object({
      latencyMs: intFromString('SIM_UPSTREAM_LATENCY_MS').optional(),
      progressTicks: intFromString('SIM_UPSTREAM_PROGRESS_TICKS').optional(),
      failureRate: z
        .string()
        .transform((s) => Number(s))
        .optional(),
      callbackUrl: z.string().optional(),
      callbackSecret: z.string().optional(),
      apiKey: z.string().optional(),
    })
    .parse({
      latencyMs: env.SIM_UPSTREAM_LATENCY_MS,
      progressTicks: env.SIM_UPSTREAM_PROGRESS_TICKS,
      failureRate: env.SIM_UPSTREAM_FAILURE_RATE,
      callbackUrl: env.SIM_UPSTREAM_CALLBACK_URL,
      callbackSecret: env.SIM_UPSTREAM_CALLBACK_SECRET,
      apiKey: env.SIM_UPSTREAM_API_KEY,
    });
  const envConfig = Object.fromEntries(Object.entries(fromEnv).filter(([, v]) => v !== undefined && v !== ''));
  // The JSON configuration is the more specific one, so it wins over single env variables.
  const merged = simulatedUpstreamControlSchema.safeParse({
    ...start.data,
    config: { ...envConfig, ...start.data.config },
  });
  if (!merged.success) throw new Error(`sim-upstream: invalid configuration: ${z.prettifyError(merged.error)}`);
  const port = intFromString('SIM_UPSTREAM_PORT').safeParse(pick('port', 'SIM_UPSTREAM_PORT') ?? '4870');
  if (!port.success || port.data > 65535) throw new Error('sim-upstream: the port must be 0..65535');
  const seed = intFromString('SIM_UPSTREAM_SEED').safeParse(pick('seed', 'SIM_UPSTREAM_SEED') ?? '1');
  if (!seed.success) throw new Error('sim-upstream: the seed must be a whole number');
  return {
    host: pick('host', 'SIM_UPSTREAM_HOST') ?? '127.0.0.1',
    port: port.data,
    stateFile: pick('state-file', 'SIM_UPSTREAM_STATE_FILE') ?? `${dataDir}/sim-upstream/state.json`,
    portFile: pick('port-file', 'SIM_UPSTREAM_PORT_FILE'),
    seed: seed.data,
    logLevel: env.LOG_LEVEL ?? 'info',
    start: merged.data,
  };
}
