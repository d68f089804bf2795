import { ConfigError } from '@lomo/contracts';
import type { ModelError } from '../model-errors';
import type { MaxTokensParameter } from './openai-request';

export interface OpenAIModelProviderOptions {
  /** Required; servers that need no key accept any non-empty placeholder. */
  apiKey: string;
  model: string;
  /** Any OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1. */
  baseUrl?: string;
  /** Per attempt, covering the whole response (headers and body). */
  timeoutMs?: number;
  /** Retries after the first attempt, for retriable errors only. 0 disables retrying. */
  maxRetries?: number;
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Upper bound on a server's retry-after, so a hostile or confused header cannot park a turn. */
  maxRetryAfterMs?: number;
  /** OpenAI wants max_completion_tokens; some compatible servers only know max_tokens. */
  maxTokensParameter?: MaxTokensParameter;
  /**
   * Send a request's `allowedTools` as `tool_choice: { type: 'allowed_tools' }` (OpenAI). Some
   * compatible servers reject that form: off, they get plain `auto` and may propose a call
   * outside the allowed set, which the runtime refuses.
   */
  sendAllowedTools?: boolean;
  /** Called before each retry with the delay actually waited; for logs and metrics. */
  onRetry?: (error: ModelError, attempt: number, delayMs: number) => void;
}

export type ResolvedOpenAIOptions = Required<Omit<OpenAIModelProviderOptions, 'onRetry'>> &
  Pick<OpenAIModelProviderOptions, 'onRetry'>;

export const OPENAI_DEFAULTS = {
  baseUrl: 'https://api.openai.com/v1',
  timeoutMs: 60_000,
  maxRetries: 2,
  initialRetryDelayMs: 500,
  maxRetryDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  maxTokensParameter: 'max_completion_tokens',
  sendAllowedTools: true,
} as const;

const isNonNegativeInt = (n: number) => Number.isInteger(n) && n >= 0;

/** Fails at construction (start-up), not on the first model call minutes later. */
export function resolveOpenAIOptions(options: OpenAIModelProviderOptions): ResolvedOpenAIOptions {
  const resolved: ResolvedOpenAIOptions = {
    ...OPENAI_DEFAULTS,
    ...stripUndefined(options),
    apiKey: options.apiKey ?? '',
    model: options.model ?? '',
  };
  const problems: Array<{ variable: string; message: string }> = [];
  if (!resolved.apiKey) problems.push({ variable: 'apiKey', message: 'is required for the openai provider' });
  if (!resolved.model) problems.push({ variable: 'model', message: 'is required' });
  if (!/^https?:\/\/[^\s]+$/.test(resolved.baseUrl))
    problems.push({ variable: 'baseUrl', message: 'must be an http(s) URL' });
  if (!(isNonNegativeInt(resolved.timeoutMs) && resolved.timeoutMs > 0)) {
    problems.push({ variable: 'timeoutMs', message: 'must be a positive integer' });
  }
  for (const key of ['maxRetries', 'initialRetryDelayMs', 'maxRetryDelayMs', 'maxRetryAfterMs'] as const) {
    if (!isNonNegativeInt(resolved[key])) problems.push({ variable: key, message: 'must be a non-negative integer' });
  }
  if (problems.length > 0) {
    throw new ConfigError(
      `Invalid openai model provider options: ${problems.map((p) => `${p.variable} ${p.message}`).join('; ')}`,
      problems,
    );
  }
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
