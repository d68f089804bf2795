import type { CompletionRequest, TokenUsage } from './model-provider.port';

// Ideographic scripts spend about a token per character; alphabetic text about one per four.
const WIDE_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;

/** A rough, deterministic token count for adapters that have no tokenizer (offline, scripted). */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  const wide = text.match(WIDE_CHAR)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / 4);
}

export function estimateUsage(request: CompletionRequest, output: string): TokenUsage {
  const prompt = request.messages.map(
    (m) => m.content + (m.role === 'assistant' ? JSON.stringify(m.toolCalls ?? []) : ''),
  );
  const tools = request.tools.length > 0 ? JSON.stringify(request.tools) : '';
  return { inputTokens: estimateTokens(prompt.join('\n') + tools), outputTokens: estimateTokens(output) };
}
