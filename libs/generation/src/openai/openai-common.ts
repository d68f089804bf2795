import OpenAI from 'openai';
import { ConfigError } from '@lomo/contracts';

/** What both adapters need to reach an OpenAI(-compatible) endpoint. */
export interface OpenAiConnectionOptions {
  apiKey: string;
  /** Default https://api.openai.com/v1; tests point it at a local server. */
  baseUrl?: string;
  /** Per attempt, covering headers and body. */
  timeoutMs?: number;
  /**
   * SDK retries for reads (poll, retrieve). Never used by submit: every create is sent with
   * maxRetries 0, so a request that may have created a job is not sent again.
   */
  maxReadRetries?: number;
}

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export function createOpenAiClient(options: OpenAiConnectionOptions, timeoutMs: number): OpenAI {
  return new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl ?? OPENAI_BASE_URL,
    timeout: timeoutMs,
    maxRetries: options.maxReadRetries ?? 2,
    // null, not undefined: otherwise the SDK reads OPENAI_ORG_ID / OPENAI_PROJECT_ID behind config's
    // back (libs/llm/src/openai/openai-model-provider.ts does the same).
    organization: null,
    project: null,
    // Verification is ours (./standard-webhook.ts); keep the SDK from reading OPENAI_WEBHOOK_SECRET.
    webhookSecret: null,
  });
}

/** Fails at construction (start-up), not on the first paid call. */
export function checkOptions(adapter: string, problems: Array<string | false | undefined>): void {
  const found = problems.filter((p): p is string => typeof p === 'string');
  if (found.length > 0) {
    throw new ConfigError(
      `Invalid ${adapter} options: ${found.join('; ')}`,
      found.map((message) => ({ variable: adapter, message })),
    );
  }
}

export const isPositiveInt = (n: number | undefined) => n === undefined || (Number.isInteger(n) && n > 0);
export const isNonNegativeInt = (n: number | undefined) => n === undefined || (Number.isInteger(n) && n >= 0);

/**
 * Sent on every create, so an upstream (or a proxy) that deduplicates by key can; the SDK sets no
 * such header for OpenAI by itself (`idempotencyHeader` in node_modules/openai/client.js).
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export function optionString(options: Readonly<Record<string, unknown>>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = options[name];
    if (typeof value === 'string' && value.length > 0) return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}
