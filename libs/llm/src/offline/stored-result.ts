/**
 * A result too large for the context comes back as a summary with a ref (the runtime's
 * result-summary: `{ok:true, stored:true, result:{ref, pages, ...}}`). The offline policy reads
 * its first page once with `result.read` before it answers, so `npm start` shows a large result
 * being brought back exactly (README.md beside this file, "Context").
 */
import type { ChatMessage, ModelToolCall, ToolSpec } from '../model-provider.port';
import { isRecord, parseJson } from './json-values';

export const RESULT_READ = 'result.read';

export function readStoredResult(
  latest: Extract<ChatMessage, { role: 'tool' }>,
  turn: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  callId: string,
): ModelToolCall | undefined {
  if (!tools.some((t) => t.name === RESULT_READ)) return undefined;
  const value = parseJson(latest.content);
  if (!isRecord(value) || value.stored !== true || !isRecord(value.result)) return undefined;
  const ref = value.result.ref;
  if (typeof ref !== 'string') return undefined;
  // Once per ref and turn: a page read answers the question; the rest stays one call away.
  const asked = turn.some(
    (m) =>
      m.role === 'assistant' && (m.toolCalls ?? []).some((c) => c.name === RESULT_READ && c.arguments.includes(ref)),
  );
  if (asked) return undefined;
  return { id: callId, name: RESULT_READ, arguments: JSON.stringify({ ref, page: 1 }) };
}
