import type { LomoConfig } from '@lomo/config';
import {
  TokenBudget,
  createModelProvider,
  tokenizerFor,
  withTokenBudget,
  type ModelProvider,
  type Tokenizer,
} from '@lomo/llm';

/** One budget per process (LOMO_MODEL_TOKEN_BUDGET), whichever module asks for a model first. */
let processBudget: TokenBudget | undefined;
export function processTokenBudget(tokens: number): TokenBudget {
  if (processBudget === undefined || processBudget.budgetTokens !== tokens) processBudget = new TokenBudget(tokens);
  return processBudget;
}

/** The model LOMO_MODEL_PROVIDER names (offline by default), as the executor and the router both use it. */
export function modelProviderFrom(config: LomoConfig): ModelProvider {
  const provider = createModelProvider({
    provider: config.LOMO_MODEL_PROVIDER,
    baseUrl: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    model: config.LOMO_MODEL,
    timeoutMs: config.LOMO_MODEL_TIMEOUT_MS,
    sendAllowedTools: config.LOMO_OPENAI_ALLOWED_TOOLS === 'on',
  });
  const budget = config.LOMO_MODEL_TOKEN_BUDGET;
  return budget === undefined ? provider : withTokenBudget(provider, processTokenBudget(budget));
}

/** Counts prompt tokens as the configured model does (its BPE for OpenAI-family models, else the estimate). */
export function tokenizerFromConfig(config: LomoConfig): Tokenizer {
  return tokenizerFor({ provider: config.LOMO_MODEL_PROVIDER, model: config.LOMO_MODEL });
}
