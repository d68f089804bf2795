import OpenAI from 'openai';
import { z } from 'zod';
import { ConfigError } from '@lomo/contracts';
import { retry, sleep } from '@lomo/resilience';
import type { EmbeddingProvider, EmbeddingRequest } from '../embedding-provider.port';
import {
  ModelAbortedError,
  ModelError,
  ModelInvalidResponseError,
  ModelRateLimitedError,
  throwIfAborted,
} from '../model-errors';
import { withAttemptDeadline } from '../openai/attempt-deadline';
import { OPENAI_DEFAULTS } from '../openai/openai-options';

export interface OpenAIEmbeddingProviderOptions {
  apiKey: string;
  /** Any OpenAI-compatible endpoint. */
  baseUrl?: string;
  model?: string;
  /** Length of the vectors; sent to the endpoint (text-embedding-3 models shorten to it). */
  dimensions?: number;
  /** Send `dimensions` on the wire; off for servers that reject the field (default on). */
  sendDimensions?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  maxRetryAfterMs?: number;
  onRetry?: (error: ModelError, attempt: number, delayMs: number) => void;
}

export const OPENAI_EMBEDDING_DEFAULTS = {
  model: 'text-embedding-3-small',
  dimensions: 1536,
  timeoutMs: 30_000,
} as const;

const wireEmbeddings = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
  model: z.string().optional(),
});

/**
 * Embeddings through the official SDK (`embeddings.create`) against any OpenAI-compatible
 * endpoint: SEMANTIC vectors from a learned model. Errors go through the chat adapter's
 * classifier (openai-errors.ts) and retriable ones are retried with the shared helper, the SDK's
 * own retries off, exactly as in openai-model-provider.ts. Vectors are re-normalised (compatible
 * servers do not all normalise) and checked for length.
 */
export class OpenAIEmbeddingProvider implements EmbeddingProvider {
  readonly name = 'openai';
  readonly kind = 'semantic' as const;
  readonly dimensions: number;
  private readonly model: string;
  private readonly client: OpenAI;
  private readonly options: Required<Omit<OpenAIEmbeddingProviderOptions, 'onRetry' | 'dimensions' | 'model'>> &
    Pick<OpenAIEmbeddingProviderOptions, 'onRetry'>;

  constructor(options: OpenAIEmbeddingProviderOptions) {
    this.model = options.model ?? OPENAI_EMBEDDING_DEFAULTS.model;
    this.dimensions = options.dimensions ?? OPENAI_EMBEDDING_DEFAULTS.dimensions;
    this.options = {
      apiKey: options.apiKey,
      baseUrl: options.baseUrl ?? OPENAI_DEFAULTS.baseUrl,
      sendDimensions: options.sendDimensions ?? true,
      timeoutMs: options.timeoutMs ?? OPENAI_EMBEDDING_DEFAULTS.timeoutMs,
      maxRetries: options.maxRetries ?? OPENAI_DEFAULTS.maxRetries,
      initialRetryDelayMs: options.initialRetryDelayMs ?? OPENAI_DEFAULTS.initialRetryDelayMs,
      maxRetryDelayMs: options.maxRetryDelayMs ?? OPENAI_DEFAULTS.maxRetryDelayMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? OPENAI_DEFAULTS.maxRetryAfterMs,
      onRetry: options.onRetry,
    };
    const problems: Array<{ variable: string; message: string }> = [];
    if (!this.options.apiKey) problems.push({ variable: 'apiKey', message: 'is required for openai embeddings' });
    if (!/^https?:\/\/[^\s]+$/.test(this.options.baseUrl))
      problems.push({ variable: 'baseUrl', message: 'must be an http(s) URL' });
    if (!Number.isInteger(this.dimensions) || this.dimensions < 1) {
      problems.push({ variable: 'dimensions', message: 'must be a positive integer' });
    }
    if (!Number.isInteger(this.options.timeoutMs) || this.options.timeoutMs < 1) {
      problems.push({ variable: 'timeoutMs', message: 'must be a positive integer' });
    }
    if (problems.length > 0) {
      throw new ConfigError(
        `Invalid openai embedding options: ${problems.map((p) => `${p.variable} ${p.message}`).join('; ')}`,
        problems,
      );
    }
    this.client = new OpenAI({
      apiKey: this.options.apiKey,
      baseURL: this.options.baseUrl,
      timeout: this.options.timeoutMs,
      maxRetries: 0,
      organization: null,
      project: null,
    });
  }

  async embed(request: EmbeddingRequest): Promise<Float32Array[]> {
    throwIfAborted(request.signal);
    if (request.texts.length === 0) return [];
    let nextDelayMs = 0;
    try {
      return await retry(() => this.attempt(request.texts, request.signal), {
        maxAttempts: this.options.maxRetries + 1,
        initialDelayMs: this.options.initialRetryDelayMs,
        maxDelayMs: this.options.maxRetryDelayMs,
        signal: request.signal,
        onRetry: (error, attempt, backoffMs) => {
          const asked = error instanceof ModelRateLimitedError ? error.retryAfterMs : undefined;
          nextDelayMs = asked === undefined ? backoffMs : Math.min(asked, this.options.maxRetryAfterMs);
          if (error instanceof ModelError) this.options.onRetry?.(error, attempt, nextDelayMs);
        },
        sleep: (_backoffMs, signal) => sleep(nextDelayMs, signal),
      });
    } catch (error) {
      if (request.signal?.aborted)
        throw error instanceof ModelAbortedError ? error : new ModelAbortedError(undefined, error);
      throw error;
    }
  }

  private attempt(texts: readonly string[], callerSignal: AbortSignal | undefined): Promise<Float32Array[]> {
    return withAttemptDeadline(this.options.timeoutMs, callerSignal, async (signal) => {
      const body: unknown = await this.client.embeddings.create(
        {
          model: this.model,
          input: [...texts],
          // Floats, not the SDK's default base64: every compatible server speaks this.
          encoding_format: 'float',
          ...(this.options.sendDimensions ? { dimensions: this.dimensions } : {}),
        },
        { signal },
      );
      return this.vectorsOf(body, texts.length);
    });
  }

  private vectorsOf(body: unknown, count: number): Float32Array[] {
    const parsed = wireEmbeddings.safeParse(body);
    if (!parsed.success)
      throw new ModelInvalidResponseError('not an embeddings response', { issues: parsed.error.issues.length });
    const vectors = new Array<Float32Array | undefined>(count);
    for (const item of parsed.data.data) {
      if (item.index >= count) throw new ModelInvalidResponseError(`embedding index ${item.index} out of range`);
      if (item.embedding.length !== this.dimensions) {
        throw new ModelInvalidResponseError(
          `embedding of ${item.embedding.length} dimensions, expected ${this.dimensions}`,
          { got: item.embedding.length, expected: this.dimensions },
        );
      }
      vectors[item.index] = normalised(item.embedding);
    }
    const missing = vectors.findIndex((v) => v === undefined);
    if (missing >= 0) throw new ModelInvalidResponseError(`no embedding for input ${missing}`, { count });
    return vectors as Float32Array[];
  }
}

function normalised(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const v of vector) norm += v * v;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i += 1) vector[i]! *= scale;
  }
  return vector;
}
