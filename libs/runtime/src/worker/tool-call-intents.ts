import { makeCallId, toolName } from '@lomo/contracts';
import type { ToolCallIntent } from '@lomo/domain';
import type { ModelToolCall } from '@lomo/llm';

/** Stands in for a name the contract cannot store; the registry answers it with TOOL_NOT_FOUND. */
export const INVALID_TOOL_NAME = 'invalid_tool_name';

/**
 * The model's tool calls as ledger intents. Ids are the runtime's own (`{turnId}:{step}:{index}`),
 * never the vendor's, so a re-run or a takeover derives the same ids. Arguments are kept parsed
 * when they are JSON and as the raw text otherwise, so the tool answers with an argument error the
 * model can read.
 */
export function toIntents(calls: readonly ModelToolCall[], turnId: string, step: number): ToolCallIntent[] {
  return calls.map((call, index) => ({
    callId: makeCallId(turnId, step, index),
    tool: toolName.safeParse(call.name).success ? call.name : INVALID_TOOL_NAME,
    arguments: parseArguments(call.arguments),
  }));
}

function parseArguments(raw: string): ToolCallIntent['arguments'] {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as ToolCallIntent['arguments'];
  } catch {
    return raw;
  }
}
