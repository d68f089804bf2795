import OpenAI from 'openai';
import { retry, sleep } from '@lomo/resilience';
import { ModelAbortedError, ModelError, ModelRateLimitedError, throwIfAborted } from '../model-errors';
import type { CompletionRequest, CompletionResult, ModelProvider } from '../model-provider.port';
import { withAttemptDeadline } from './attempt-deadline';
import { resolveOpenAIOptions, type OpenAIModelProviderOptions, type ResolvedOpenAIOptions } from './openai-options';
import { toChatCompletionParams } from './openai-request';
import { fromChatCompletion } from './openai-response';
import { toolNameCodec } from './tool-name-codec';

type WireParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

/**
 * Chat completions through the official SDK against any OpenAI-compatible endpoint. The SDK's
 * own retries are off: retrying is decided here, once, with the shared helper, so attempts,
 * backoff and the abort signal behave the same as everywhere else in Lomo.
 */
export class OpenAIModelProvider implements ModelProvider {
  readonly name = 'openai';
  private readonly options: ResolvedOpenAIOptions;
  private readonly client: OpenAI;

  constructor(options: OpenAIModelProviderOptions) {
    this.options = resolveOpenAIOptions(options);
    this.client = new OpenAI({
      apiKey: this.options.apiKey,
      baseURL: this.options.baseUrl,
      timeout: this.options.timeoutMs,
      maxRetries: 0,
      // null, not undefined: otherwise the SDK reads OPENAI_ORG_ID / OPENAI_PROJECT_ID behind config's back.
      organization: null,
      project: null,
    });
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    throwIfAborted(request.signal);
    const names = toolNameCodec(request);
    const params = toChatCompletionParams(names.encodeRequest(request), this.options);
    let nextDelayMs = 0;
    try {
      const result = await retry(() => this.attempt(params, request.signal), {
        maxAttempts: this.options.maxRetries + 1,
        initialDelayMs: this.options.initialRetryDelayMs,
        maxDelayMs: this.options.maxRetryDelayMs,
        signal: request.signal,
        onRetry: (error, attempt, backoffMs) => {
          nextDelayMs = this.delayBeforeRetry(error, backoffMs);
          if (error instanceof ModelError) this.options.onRetry?.(error, attempt, nextDelayMs);
        },
        sleep: (_backoffMs, signal) => sleep(nextDelayMs, signal),
      });
      return names.decodeResult(result);
    } catch (error) {
      // An abort during the backoff sleep rejects with the signal's reason, not a ModelError.
      if (request.signal?.aborted)
        throw error instanceof ModelAbortedError ? error : new ModelAbortedError(undefined, error);
      throw error;
    }
  }

  /** The server's retry-after wins over our backoff when present, within maxRetryAfterMs. */
  private delayBeforeRetry(error: unknown, backoffMs: number): number {
    const asked = error instanceof ModelRateLimitedError ? error.retryAfterMs : undefined;
    return asked === undefined ? backoffMs : Math.min(asked, this.options.maxRetryAfterMs);
  }

  private attempt(params: WireParams, callerSignal: AbortSignal | undefined): Promise<CompletionResult> {
    return withAttemptDeadline(this.options.timeoutMs, callerSignal, async (signal) => {
      const body: unknown = await this.client.chat.completions.create(params, { signal });
      return fromChatCompletion(body, params.model, { structured: params.response_format !== undefined });
    });
  }
}
