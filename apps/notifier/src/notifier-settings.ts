import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, zodIssues } from '@lomo/contracts';
import type { LomoConfig } from '@lomo/config';
import type { BackoffOptions } from '@lomo/resilience';

/**
 * The notifier's own variables. They belong in the shared config schema (libs/config, which
 * refuses unknown LOMO_* variables); until they are there they are read and validated here,
 * naming the variable on a bad value.
 */
const settingsShape = z.object({
  MONGODB_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'a mongodb:// or mongodb+srv:// connection string')
    .optional(),
  MONGODB_DATABASE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,63}$/)
    .default('lomo'),
  LOMO_NOTIFIER_SQLITE_PATH: z.string().min(1).optional(),
  LOMO_WEBHOOK_HTTP_ALLOWLIST: z
    .string()
    .regex(/^[A-Za-z0-9.:[\]-]+(,[A-Za-z0-9.:[\]-]+)*$/, 'a comma-separated list of host names or IP addresses')
    .optional(),
  LOMO_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  LOMO_WEBHOOK_BACKOFF_INITIAL_MS: z.coerce.number().int().min(1).max(3_600_000).default(2_000),
  LOMO_WEBHOOK_BACKOFF_MAX_MS: z.coerce.number().int().min(1).max(86_400_000).default(3_600_000),
  LOMO_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  LOMO_WEBHOOK_STREAMS_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(4),
  LOMO_WEBHOOK_BATCH_SIZE: z.coerce.number().int().min(1).max(5_000).default(200),
  LOMO_WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  LOMO_WEBHOOK_RECONCILE_MS: z.coerce.number().int().min(10).max(300_000).default(2_000),
  LOMO_WEBHOOK_LEASE_MS: z.coerce.number().int().min(300).max(600_000).default(30_000),
  LOMO_WEBHOOK_SECRET_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(86_400),
  LOMO_WEBHOOK_MAX_PER_WORKSPACE: z.coerce.number().int().min(1).max(1_000).default(20),
  LOMO_WEBHOOK_DISABLE_ON_GONE: z.enum(['true', 'false']).default('true'),
});

export interface NotifierSettings {
  /** Webhook state on MongoDB/FerretDB when set, else SQLite at `sqlitePath`. */
  mongodbUrl: string | undefined;
  mongodbDatabase: string;
  sqlitePath: string;
  /** Production: only https, and no loopback/private literal hosts, except `httpAllowlist`. */
  production: boolean;
  httpAllowlist: readonly string[];
  /** Failed attempts of one event (per redelivery cycle) before it goes to the dead letters. */
  maxAttempts: number;
  backoff: BackoffOptions;
  requestTimeoutMs: number;
  /** Streams of one webhook with a delivery in flight at once. */
  streamsInFlight: number;
  batchSize: number;
  pollIntervalMs: number;
  /** How often webhook registrations, replays and dead-letter requests are picked up. */
  reconcileIntervalMs: number;
  /** One notifier instance delivers a webhook at a time; it renews at a third of this. */
  leaseMs: number;
  /** How long previous secrets stay valid after a rotation. */
  secretGraceSeconds: number;
  maxWebhooksPerWorkspace: number;
  /** 410 Gone from a receiver disables the webhook (its state is kept). */
  disableOnGone: boolean;
}

export const notifierVariables = Object.keys(settingsShape.shape);

export function notifierSettingsFromEnv(
  config: Pick<LomoConfig, 'LOMO_DATA_DIR' | 'NODE_ENV'>,
  env: Record<string, string | undefined> = process.env,
): NotifierSettings {
  const present = Object.fromEntries(notifierVariables.flatMap((k) => (env[k] ? [[k, env[k]]] : [])));
  const parsed = settingsShape.safeParse(present);
  if (!parsed.success) {
    const variables = zodIssues(parsed.error).map((i) => ({ variable: i.path, message: i.message }));
    throw new ConfigError(`Invalid notifier configuration: ${variables.map((v) => v.variable).join(', ')}`, variables);
  }
  const s = parsed.data;
  if (s.LOMO_WEBHOOK_BACKOFF_MAX_MS < s.LOMO_WEBHOOK_BACKOFF_INITIAL_MS) {
    const variable = 'LOMO_WEBHOOK_BACKOFF_MAX_MS';
    throw new ConfigError(`Invalid notifier configuration: ${variable}`, [
      { variable, message: 'must be at least LOMO_WEBHOOK_BACKOFF_INITIAL_MS' },
    ]);
  }
  return {
    mongodbUrl: s.MONGODB_URL,
    mongodbDatabase: s.MONGODB_DATABASE,
    sqlitePath: s.LOMO_NOTIFIER_SQLITE_PATH ?? join(config.LOMO_DATA_DIR, 'notifier.sqlite'),
    production: config.NODE_ENV === 'production',
    httpAllowlist: s.LOMO_WEBHOOK_HTTP_ALLOWLIST?.split(',').map((h) => h.toLowerCase()) ?? [],
    maxAttempts: s.LOMO_WEBHOOK_MAX_ATTEMPTS,
    backoff: {
      initialDelayMs: s.LOMO_WEBHOOK_BACKOFF_INITIAL_MS,
      maxDelayMs: s.LOMO_WEBHOOK_BACKOFF_MAX_MS,
      jitter: 1,
    },
    requestTimeoutMs: s.LOMO_WEBHOOK_TIMEOUT_MS,
    streamsInFlight: s.LOMO_WEBHOOK_STREAMS_IN_FLIGHT,
    batchSize: s.LOMO_WEBHOOK_BATCH_SIZE,
    pollIntervalMs: s.LOMO_WEBHOOK_POLL_MS,
    reconcileIntervalMs: s.LOMO_WEBHOOK_RECONCILE_MS,
    leaseMs: s.LOMO_WEBHOOK_LEASE_MS,
    secretGraceSeconds: s.LOMO_WEBHOOK_SECRET_GRACE_SECONDS,
    maxWebhooksPerWorkspace: s.LOMO_WEBHOOK_MAX_PER_WORKSPACE,
    disableOnGone: s.LOMO_WEBHOOK_DISABLE_ON_GONE === 'true',
  };
}
