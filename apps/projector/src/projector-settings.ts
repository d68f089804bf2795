import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, zodIssues } from '@lomo/contracts';
import type { LomoConfig } from '@lomo/config';

/**
 * The projector's own variables. They belong in the shared config schema (libs/config); until
 * they are there they are read and validated here, naming the variable on a bad value.
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
  LOMO_READ_MODELS_PATH: z.string().min(1).optional(),
  LOMO_PROJECTOR_FEED: z.enum(['bus', 'store']).default('bus'),
  LOMO_PROJECTOR_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(5_000),
  LOMO_PROJECTOR_MAX_LAG_SECONDS: z.coerce.number().min(1).max(86_400).default(60),
});

export interface ProjectorSettings {
  /** Read models on MongoDB/FerretDB when set, else SQLite at `sqlitePath`. */
  mongodbUrl: string | undefined;
  mongodbDatabase: string;
  sqlitePath: string;
  /** `bus`: relayed events (consumer group `projector`); `store`: tail the event store directly. */
  feed: 'bus' | 'store';
  /** Store sweep period: repairs what the feed missed and refreshes the lag figures. */
  sweepMs: number;
  maxLagSeconds: number;
}

export function projectorSettingsFromEnv(
  config: Pick<LomoConfig, 'LOMO_DATA_DIR'>,
  env: Record<string, string | undefined> = process.env,
): ProjectorSettings {
  const present = Object.fromEntries(Object.keys(settingsShape.shape).flatMap((k) => (env[k] ? [[k, env[k]]] : [])));
  const parsed = settingsShape.safeParse(present);
  if (!parsed.success) {
    const variables = zodIssues(parsed.error).map((i) => ({ variable: i.path, message: i.message }));
    throw new ConfigError(`Invalid projector configuration: ${variables.map((v) => v.variable).join(', ')}`, variables);
  }
  const s = parsed.data;
  return {
    mongodbUrl: s.MONGODB_URL,
    mongodbDatabase: s.MONGODB_DATABASE,
    sqlitePath: s.LOMO_READ_MODELS_PATH ?? join(config.LOMO_DATA_DIR, 'read-models.sqlite'),
    feed: s.LOMO_PROJECTOR_FEED,
    sweepMs: s.LOMO_PROJECTOR_SWEEP_MS,
    maxLagSeconds: s.LOMO_PROJECTOR_MAX_LAG_SECONDS,
  };
}
