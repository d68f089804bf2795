import { z } from 'zod';
import { ModelInvalidResponseError, ModelRefusedError } from '../model-errors';
import type { CompletionResult, FinishReason, ModelToolCall, TokenUsage } from '../model-provider.port';

// Parsed rather than trusted: "OpenAI-compatible" servers differ in what they omit.
const wireToolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function').optional(),
  function: z.object({
    name: z.string().min(1),
    // A few compatible servers send the arguments as an object instead of JSON text.
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
  }),
});

const wireUsage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().optional() }).nullish(),
});

const wireCompletion = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(wireToolCall).nullish(),
        }),
      }),
    )
    .min(1),
  usage: wireUsage.nullish(),
});

function finishReasonOf(raw: string | null | undefined, toolCalls: readonly ModelToolCall[]): FinishReason {
  switch (raw) {
    case 'length':
    case 'content_filter':
      return raw;
    case 'tool_calls':
    case 'function_call':
      if (toolCalls.length === 0) throw new ModelInvalidResponseError(`finish_reason "${raw}" without any tool call`);
      return 'tool_calls';
    default:
      // Some compatible servers say "stop" (or nothing) beside tool calls; the calls are what counts.
      return toolCalls.length > 0 ? 'tool_calls' : 'stop';
  }
}

function usageOf(usage: z.infer<typeof wireUsage> | null | undefined): TokenUsage {
  // A server that reports no usage costs nothing we can count; zeros, not a guess, go into events.
  if (!usage) return { inputTokens: 0, outputTokens: 0 };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
  };
}

/**
 * A chat-completions response body as our CompletionResult, or MODEL_INVALID_RESPONSE. When a
 * structured answer was asked for, a refusal (`message.refusal`, no content) is MODEL_REFUSED:
 * its text is no JSON, and asking again would get the same. A free-text reply keeps a refusal as
 * its text, which the person can read.
 */
export function fromChatCompletion(
  body: unknown,
  requestedModel: string,
  options: { structured?: boolean } = {},
): CompletionResult {
  const parsed = wireCompletion.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ModelInvalidResponseError(`not a chat completion: ${issues.join('; ')}`, { issues });
  }
  const [choice] = parsed.data.choices;
  const { refusal, content } = choice.message;
  if (options.structured && refusal && !content) {
    throw new ModelRefusedError(`the model refused to answer: ${refusal}`, refusal, {
      model: parsed.data.model || requestedModel,
    });
  }
  const toolCalls = (choice.message.tool_calls ?? []).map((c) => ({
    id: c.id,
    name: c.function.name,
    arguments: typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments),
  }));
  return {
    text: choice.message.content ?? choice.message.refusal ?? '',
    toolCalls,
    usage: usageOf(parsed.data.usage),
    finishReason: finishReasonOf(choice.finish_reason, toolCalls),
    model: parsed.data.model || requestedModel,
  };
}
