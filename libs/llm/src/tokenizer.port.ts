import type { ChatMessage, ToolSpec } from './model-provider.port';

export const TOKENIZER = Symbol('TOKENIZER');

/**
 * How a tokenizer counts: a real BPE encoding of the OpenAI family, or the documented estimate
 * (token-estimate.ts) for models whose tokenizer we do not ship (offline, scripted, others).
 */
export const TOKEN_ENCODINGS = ['o200k_base', 'cl100k_base', 'estimate'] as const;
export type TokenEncoding = (typeof TOKEN_ENCODINGS)[number];

/**
 * The documented per-message overhead of OpenAI chat models ("How to count tokens with
 * tiktoken", the OpenAI cookbook, for gpt-3.5-turbo-0613 onwards, gpt-4 and gpt-4o): each message
 * is wrapped as `<|start|>{role}\n{content}<|end|>\n`, 3 tokens beside its role and content, and
 * every reply is primed with `<|start|>assistant<|message|>`, 3 more per request.
 */
export const TOKENS_PER_MESSAGE = 3;
export const REPLY_PRIMING_TOKENS = 3;

/**
 * Counts what a model will be sent, so the runtime can keep a prompt under its budget and
 * record what each layer cost. Counting is synchronous and deterministic (the same text always
 * gives the same number); a tokenizer that is `exact: false` gives an estimate.
 *
 * The rule for a chat request (countMessages), so that per-layer sums add up to the whole:
 *   Σ countMessage(m) + countTools(tools) + REPLY_PRIMING_TOKENS
 * where countMessage(m) = TOKENS_PER_MESSAGE + count(role) + count(content)
 *   + Σ over an assistant's tool calls (count(name) + count(arguments)),
 * and countTools(tools) = Σ count(JSON.stringify({ name, description, parameters })) per tool.
 * OpenAI documents no overhead for tool calls, and renders tool definitions internally in a
 * terser form than their JSON, so the tool part is an upper bound rather than the vendor's count.
 */
export interface Tokenizer {
  readonly encoding: TokenEncoding;
  /** True for a real BPE encoding; false for the estimate. */
  readonly exact: boolean;
  count(text: string): number;
  /** One message as it sits in a chat request (overhead, role, content, tool calls). */
  countMessage(message: ChatMessage): number;
  /** Tool definitions as they are offered; 0 for none. */
  countTools(tools: readonly ToolSpec[]): number;
  /** A whole chat request: its messages, its tools and the reply priming. */
  countMessages(messages: readonly ChatMessage[], tools?: readonly ToolSpec[]): number;
}
