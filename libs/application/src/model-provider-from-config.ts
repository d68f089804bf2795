import type { LomoConfig } from '@lomo/config';
import { createModelProvider, type ModelProvider } from '@lomo/llm';

/** The model LOMO_MODEL_PROVIDER names (offline by default), as the executor and the router both use it. */
export function modelProviderFrom(config: LomoConfig): ModelProvider {
  return createModelProvider({
    provider: config.LOMO_MODEL_PROVIDER,
    baseUrl: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    model: config.LOMO_MODEL,
    timeoutMs: config.LOMO_MODEL_TIMEOUT_MS,
  });
}
