import type { LomoConfig } from '@lomo/config';
import { createModelProvider, tokenizerFor, type ModelProvider, type Tokenizer } from '@lomo/llm';

/** The model LOMO_MODEL_PROVIDER names (offline by default), as the executor and the router both use it. */
export function modelProviderFrom(config: LomoConfig): ModelProvider {
  return createModelProvider({
    provider: config.LOMO_MODEL_PROVIDER,
    baseUrl: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    model: config.LOMO_MODEL,
    timeoutMs: config.LOMO_MODEL_TIMEOUT_MS,
    sendAllowedTools: config.LOMO_OPENAI_ALLOWED_TOOLS === 'on',
  });
}

/** Counts prompt tokens as the configured model does (its BPE for OpenAI-family models, else the estimate). */
export function tokenizerFromConfig(config: LomoConfig): Tokenizer {
  return tokenizerFor({ provider: config.LOMO_MODEL_PROVIDER, model: config.LOMO_MODEL });
}
