import type { ChatMessage, ToolSpec } from '../model-provider.port';
import { REPLY_PRIMING_TOKENS, TOKENS_PER_MESSAGE, type TokenEncoding, type Tokenizer } from '../tokenizer.port';
import { CountCache, type CountCacheLimits } from './count-cache';

/**
 * The chat-request rule of tokenizer.port.ts, shared by every adapter: an adapter only says how
 * to count a text. Long texts go through a CountCache, so a stable prefix is tokenized once.
 */
export abstract class ChatTokenizer implements Tokenizer {
  abstract readonly encoding: TokenEncoding;
  abstract readonly exact: boolean;
  private readonly cache: CountCache;

  constructor(cacheLimits: Partial<CountCacheLimits> = {}) {
    this.cache = new CountCache(cacheLimits);
  }

  /** The adapter's own count, uncached. */
  protected abstract countText(text: string): number;

  count(text: string): number {
    if (text.length === 0) return 0;
    return this.cache.count(text, (t) => this.countText(t));
  }

  countMessage(message: ChatMessage): number {
    let tokens = TOKENS_PER_MESSAGE + this.count(message.role) + this.count(message.content);
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) tokens += this.count(call.name) + this.count(call.arguments);
    }
    return tokens;
  }

  countTools(tools: readonly ToolSpec[]): number {
    let tokens = 0;
    for (const tool of tools) tokens += this.count(serializeTool(tool));
    return tokens;
  }

  countMessages(messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []): number {
    let tokens = REPLY_PRIMING_TOKENS + this.countTools(tools);
    for (const message of messages) tokens += this.countMessage(message);
    return tokens;
  }
}

/** A tool definition as counted: its JSON in a fixed key order, one definition at a time. */
export const serializeTool = (tool: ToolSpec): string =>
  JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters });
