import type { LomoConfig } from '@lomo/config';
import { resolveRuntimeOptions, type RuntimeOptions, type RuntimeOptionsInput } from '@lomo/runtime';

/** The runtime options an executor runs with, from its configuration (one place: replays rebuild with them). */
export function runtimeOptionsFromConfig(
  config: LomoConfig,
  workerId: string,
  overrides: Partial<RuntimeOptionsInput> = {},
): RuntimeOptions {
  return resolveRuntimeOptions({
    workerId,
    leaseMs: config.LOMO_LEASE_MS,
    watchdogIntervalMs: config.LOMO_WATCHDOG_INTERVAL_MS,
    maxStepsPerTurn: config.LOMO_MAX_STEPS_PER_TURN,
    maxAutoTurns: config.LOMO_MAX_AUTO_TURNS,
    maxTurnsWithoutProgress: config.LOMO_MAX_TURNS_WITHOUT_PROGRESS,
    contextTokens: config.LOMO_MODEL_CONTEXT_TOKENS,
    historyShare: config.LOMO_CONTEXT_HISTORY_SHARE,
    toolStrategy: config.LOMO_TOOL_STRATEGY,
    toolDomains: config.LOMO_TOOL_DOMAINS,
    ...overrides,
  });
}
