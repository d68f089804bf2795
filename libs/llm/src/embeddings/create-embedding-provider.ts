import { ConfigError } from '@lomo/contracts';
import type { EmbeddingProvider } from '../embedding-provider.port';
import type { ModelError } from '../model-errors';
import { HASHING_EMBEDDING_DEFAULTS, HashingEmbeddingProvider } from './hashing-embedding-provider';
import { OnnxEmbeddingProvider, type OnnxEmbeddingModel } from './onnx/onnx-embedding-provider';
import { OPENAI_EMBEDDING_DEFAULTS, OpenAIEmbeddingProvider } from './openai-embedding-provider';
import { withConfigNames } from '../provider-config-error';

export const EMBEDDING_PROVIDER_KINDS = ['hashing', 'openai', 'onnx'] as const;
export type EmbeddingProviderKind = (typeof EMBEDDING_PROVIDER_KINDS)[number];

/** The flat shape the app maps its environment onto (names in EMBEDDING_CONFIG_ENV). */
export interface EmbeddingProviderConfig {
  /** Unset: `openai` when the model itself is an OpenAI endpoint (`modelProvider`), else `hashing`. */
  provider?: EmbeddingProviderKind;
  /** LOMO_MODEL_PROVIDER, so embeddings follow a configured endpoint unless told otherwise. */
  modelProvider?: string;
  /** LOMO_EMBEDDING_BASE_URL, else the model's OPENAI_BASE_URL. */
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  dimensions?: number;
  timeoutMs?: number;
  maxRetries?: number;
  onRetry?: (error: ModelError, attempt: number, delayMs: number) => void;
  /** LOMO_EMBEDDING_MODEL_DIR: where `npm run models:fetch` put the ONNX models (`onnx`). */
  modelDirectory?: string;
  /** LOMO_EMBEDDING_ONNX_MODEL: bilingual (default), zh or en (`onnx`). */
  onnxModel?: OnnxEmbeddingModel;
}

/** Environment variable → option, with the default the app should apply. */
export const EMBEDDING_CONFIG_ENV = {
  LOMO_EMBEDDING_PROVIDER: { option: 'provider', default: undefined },
  LOMO_EMBEDDING_BASE_URL: { option: 'baseUrl', default: undefined },
  LOMO_EMBEDDING_MODEL: { option: 'model', default: OPENAI_EMBEDDING_DEFAULTS.model },
  LOMO_EMBEDDING_DIMENSIONS: { option: 'dimensions', default: undefined },
  LOMO_EMBEDDING_MODEL_DIR: { option: 'modelDirectory', default: '.models' },
  LOMO_EMBEDDING_ONNX_MODEL: { option: 'onnxModel', default: 'bilingual' },
} as const;

const envNameOf = (option: string) =>
  Object.entries(EMBEDDING_CONFIG_ENV).find(([, v]) => v.option === option)?.[0] ??
  ({ apiKey: 'OPENAI_API_KEY', timeoutMs: 'LOMO_MODEL_TIMEOUT_MS' } as Record<string, string>)[option];

/** Which embedder the configuration asks for (the rule is in EmbeddingProviderConfig.provider). */
export function embeddingProviderKind(config: EmbeddingProviderConfig): EmbeddingProviderKind {
  return config.provider ?? (config.modelProvider === 'openai' ? 'openai' : 'hashing');
}

/** Picks and builds the embedder; a bad configuration fails here, at start-up. */
export function createEmbeddingProvider(config: EmbeddingProviderConfig = {}): EmbeddingProvider {
  const kind = embeddingProviderKind(config);
  switch (kind) {
    case 'hashing':
      return new HashingEmbeddingProvider({ dimensions: config.dimensions ?? HASHING_EMBEDDING_DEFAULTS.dimensions });
    case 'openai':
      return withConfigNames(
        'embedding',
        envNameOf,
        () =>
          new OpenAIEmbeddingProvider({
            apiKey: config.apiKey ?? '',
            baseUrl: config.baseUrl,
            model: config.model,
            dimensions: config.dimensions,
            timeoutMs: config.timeoutMs,
            maxRetries: config.maxRetries,
            onRetry: config.onRetry,
          }),
      );
    case 'onnx':
      return withConfigNames(
        'embedding',
        (option) =>
          option === 'directory'
            ? 'LOMO_EMBEDDING_MODEL_DIR'
            : option === 'model'
              ? 'LOMO_EMBEDDING_ONNX_MODEL'
              : envNameOf(option),
        () => new OnnxEmbeddingProvider({ directory: config.modelDirectory ?? '.models', model: config.onnxModel }),
      );
    default:
      throw new ConfigError(`Unknown embedding provider "${String(kind)}"`, [
        { variable: 'LOMO_EMBEDDING_PROVIDER', message: `must be one of ${EMBEDDING_PROVIDER_KINDS.join(', ')}` },
      ]);
  }
}
