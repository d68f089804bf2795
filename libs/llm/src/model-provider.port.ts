export const MODEL_PROVIDER = Symbol('MODEL_PROVIDER');

/** A tool call as the model proposes it; `arguments` is the raw JSON text the model wrote. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: readonly ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** What the model is told about a tool: name, purpose and a JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface CompletionRequest {
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  toolChoice?: ToolChoice;
  /** Aborting it cancels the call in flight (a stopped task); the provider rejects with MODEL_ABORTED. */
  signal?: AbortSignal;
  maxOutputTokens?: number;
  temperature?: number;
  /** For logs and scripted fixtures only; never sent to a vendor. */
  trace?: { taskId?: string; turnId?: string; step?: number; purpose?: string };
  /**
   * Ask for a JSON answer matching this schema instead of free text or tool calls (structured
   * output). The openai adapter sends it as `response_format: json_schema` with strict mode; the
   * answer comes back as JSON text in `CompletionResult.text`. Build it with `structuredOutput()`
   * (structured-output.ts), which turns a zod schema into the strict JSON Schema; validate the
   * answer with `completeStructured()`, which also retries an invalid answer once.
   */
  responseFormat?: StructuredOutputFormat;
  /**
   * Groups requests that share a long prefix so the vendor's prompt cache can reuse it (the
   * runtime passes the task id). The openai adapter sends it as `prompt_cache_key`; providers
   * without a prompt cache ignore it. It changes no answer.
   */
  cacheKey?: string;
  /**
   * The tools the model may call at this step, while `tools` keeps every definition in a stable
   * order so the cached prefix does not change (the "masked" tool strategy). Unset: every offered
   * tool may be called. Each name must be among `tools`; an empty list allows none. The openai
   * adapter sends it as `tool_choice: allowed_tools` where the endpoint supports it (setting
   * LOMO_OPENAI_ALLOWED_TOOLS), else plain `auto`: it is a hint to the model, never a permission,
   * and the server still refuses a call to a tool outside it.
   */
  allowedTools?: readonly string[];
}

/** A named JSON Schema (strict: every property required, no additional properties). */
export interface StructuredOutputFormat {
  name: string;
  schema: Record<string, unknown>;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
}

export const FINISH_REASONS = ['stop', 'tool_calls', 'length', 'content_filter'] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

export interface CompletionResult {
  text: string;
  toolCalls: ModelToolCall[];
  usage: TokenUsage;
  finishReason: FinishReason;
  model: string;
}

/**
 * The one way the runtime talks to a model. Adapters translate vendor errors into ModelError
 * (stable `code`, `retriable`; see model-errors.ts), retry only retriable ones with the shared
 * backoff helper, and honour the abort signal. `complete` rejects only with a ModelError.
 */
export interface ModelProvider {
  readonly name: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
}
