import type { LomoConfig } from '@lomo/config';
import type { BackoffOptions } from '@lomo/resilience';

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

/** The notifier's settings, from the validated configuration (libs/config owns the variables). */
export function notifierSettings(config: LomoConfig): NotifierSettings {
  return {
    mongodbUrl: config.MONGODB_URL,
    mongodbDatabase: config.MONGODB_DATABASE,
    sqlitePath: config.LOMO_NOTIFIER_SQLITE_PATH,
    production: config.NODE_ENV === 'production',
    httpAllowlist: config.LOMO_WEBHOOK_HTTP_ALLOWLIST?.split(',').map((h) => h.toLowerCase()) ?? [],
    maxAttempts: config.LOMO_WEBHOOK_MAX_ATTEMPTS,
    backoff: {
      initialDelayMs: config.LOMO_WEBHOOK_BACKOFF_INITIAL_MS,
      maxDelayMs: config.LOMO_WEBHOOK_BACKOFF_MAX_MS,
      jitter: 1,
    },
    requestTimeoutMs: config.LOMO_WEBHOOK_TIMEOUT_MS,
    streamsInFlight: config.LOMO_WEBHOOK_STREAMS_IN_FLIGHT,
    batchSize: config.LOMO_WEBHOOK_BATCH_SIZE,
    pollIntervalMs: config.LOMO_WEBHOOK_POLL_MS,
    reconcileIntervalMs: config.LOMO_WEBHOOK_RECONCILE_MS,
    leaseMs: config.LOMO_WEBHOOK_LEASE_MS,
    secretGraceSeconds: config.LOMO_WEBHOOK_SECRET_GRACE_SECONDS,
    maxWebhooksPerWorkspace: config.LOMO_WEBHOOK_MAX_PER_WORKSPACE,
    disableOnGone: config.LOMO_WEBHOOK_DISABLE_ON_GONE === 'true',
  };
}
