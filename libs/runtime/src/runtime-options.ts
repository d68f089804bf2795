import { z } from 'zod';
import { ValidationError, workerId, zodIssues } from '@lomo/contracts';

const positive = (max: number) => z.number().int().min(1).max(max);

/** Knobs of the runtime; validated once at start so a bad value fails fast with its name. */
export const runtimeOptionsSchema = z
  .strictObject({
    /** Names this worker in TurnLeased; unique per executor process. */
    workerId,
    /** Defaults match LOMO_LEASE_MS / LOMO_WATCHDOG_INTERVAL_MS (libs/config/src/config.schema.ts says why). */
    leaseMs: positive(3_600_000).default(10_000),
    /** How often a held lease is renewed; a third of the lease leaves two chances before it expires. */
    renewEveryMs: positive(3_600_000).optional(),
    /** Steps one turn may take before the runtime stops it (runaway loops). */
    maxStepsPerTurn: positive(100_000).default(50),
    /** Turns the runtime starts by itself in a row (plan-continuation.ts) before it stops and says so. */
    maxAutoTurns: positive(1_000).default(12),
    /** Completed turns in a row without progress after which the runtime stops continuing. */
    maxTurnsWithoutProgress: positive(1_000).default(2),
    watchdogIntervalMs: positive(3_600_000).default(2_000),
    /** A turn opened or started but never leased for this long is woken again. */
    queuedTooLongMs: positive(3_600_000).default(30_000),
    /** The configured model's context window: every prompt is kept under it (LOMO_MODEL_CONTEXT_TOKENS). */
    contextTokens: positive(10_000_000).default(128_000),
    /** The share of the window history (segments and recent steps) may take before the oldest span is summarized. */
    historyShare: z.number().min(0.01).max(0.95).default(0.5),
    /**
     * How tools are offered (article §6.2): `dynamic` sends the visible domains' definitions only;
     * `masked` sends every definition in a stable order and names the callable ones (tool_choice
     * allowed_tools where the endpoint supports it). Either way the ledger refuses a call outside
     * the visible domains.
     */
    toolStrategy: z.enum(['dynamic', 'masked']).default('dynamic'),
    /**
     * `on_demand`: core tools plus the domains the checklist stage needs or the model loads
     * (tools.load). `all`: every domain always visible (tests and tools written before domains).
     */
    toolDomains: z.enum(['on_demand', 'all']).default('on_demand'),
    /** Tool results larger than this (UTF-8 bytes of their JSON) go to the BlobStore. */
    maxInlineResultBytes: positive(1_000_000).default(16_384),
  })
  .refine((o) => o.renewEveryMs === undefined || o.renewEveryMs < o.leaseMs, {
    message: 'renewEveryMs must be shorter than leaseMs',
    path: ['renewEveryMs'],
  });

export type RuntimeOptionsInput = z.input<typeof runtimeOptionsSchema>;
export type RuntimeOptions = Required<z.output<typeof runtimeOptionsSchema>>;

export function resolveRuntimeOptions(input: RuntimeOptionsInput): RuntimeOptions {
  const parsed = runtimeOptionsSchema.safeParse(input);
  if (!parsed.success) throw new ValidationError('Invalid runtime options', zodIssues(parsed.error));
  return { ...parsed.data, renewEveryMs: parsed.data.renewEveryMs ?? Math.floor(parsed.data.leaseMs / 3) };
}
