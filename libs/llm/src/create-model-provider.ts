import { ConfigError } from '@lomo/contracts';
import type { ModelError } from './model-errors';
import type { ModelProvider } from './model-provider.port';
import { OfflineModelProvider } from './offline/offline-model-provider';
import { OpenAIModelProvider } from './openai/openai-model-provider';
import { OPENAI_DEFAULTS } from './openai/openai-options';
import { ReactiveModelProvider } from './reactive/reactive-model-provider';
import { ScriptedModelProvider, type ScriptedStep } from './scripted/scripted-model-provider';
import { withConfigNames } from './provider-config-error';

export const MODEL_PROVIDER_KINDS = ['offline', 'openai', 'scripted', 'reactive'] as const;
export type ModelProviderKind = (typeof MODEL_PROVIDER_KINDS)[number];

/** The small, flat shape the app maps its environment onto (names in MODEL_CONFIG_ENV). */
export interface ModelProviderConfig {
  provider?: ModelProviderKind;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** openai only: send `allowedTools` as `tool_choice: allowed_tools` (default) or plain `auto`. */
  sendAllowedTools?: boolean;
  /** scripted only: tests build the fixture in code. */
  script?: readonly ScriptedStep[];
  onRetry?: (error: ModelError, attempt: number, delayMs: number) => void;
}

export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/** Environment variable → option, with the default the app should apply. */
export const MODEL_CONFIG_ENV = {
  LOMO_MODEL_PROVIDER: { option: 'provider', default: 'offline' },
  OPENAI_BASE_URL: { option: 'baseUrl', default: OPENAI_DEFAULTS.baseUrl },
  OPENAI_API_KEY: { option: 'apiKey', default: undefined },
  LOMO_MODEL: { option: 'model', default: DEFAULT_OPENAI_MODEL },
  LOMO_MODEL_TIMEOUT_MS: { option: 'timeoutMs', default: OPENAI_DEFAULTS.timeoutMs },
  LOMO_MODEL_MAX_RETRIES: { option: 'maxRetries', default: OPENAI_DEFAULTS.maxRetries },
  // "on" / "off" in the environment (libs/config); the app maps it onto a boolean.
  LOMO_OPENAI_ALLOWED_TOOLS: { option: 'sendAllowedTools', default: OPENAI_DEFAULTS.sendAllowedTools },
} as const;

const envNameOf = (option: string) => Object.entries(MODEL_CONFIG_ENV).find(([, v]) => v.option === option)?.[0];

/** Picks and builds the adapter; a bad configuration fails here, at start-up. */
export function createModelProvider(config: ModelProviderConfig = {}): ModelProvider {
  const provider = config.provider ?? 'offline';
  switch (provider) {
    case 'offline':
      return new OfflineModelProvider();
    case 'scripted':
      return new ScriptedModelProvider(config.script ?? []);
    case 'reactive':
      // A test policy for the drills (reactive/README.md): decides only from the prompt it is sent.
      return new ReactiveModelProvider();
    case 'openai':
      // Errors name the variables an operator actually sets.
      return withConfigNames(
        'model',
        envNameOf,
        () =>
          new OpenAIModelProvider({
            apiKey: config.apiKey ?? '',
            model: config.model ?? DEFAULT_OPENAI_MODEL,
            baseUrl: config.baseUrl,
            timeoutMs: config.timeoutMs,
            maxRetries: config.maxRetries,
            sendAllowedTools: config.sendAllowedTools,
            onRetry: config.onRetry,
          }),
      );
    default:
      throw new ConfigError(`Unknown model provider "${String(provider)}"`, [
        { variable: 'LOMO_MODEL_PROVIDER', message: `must be one of ${MODEL_PROVIDER_KINDS.join(', ')}` },
      ]);
  }
}
