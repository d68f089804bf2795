/**
 * A chat-completions request body (what the openai adapter sends, openai-request.ts) read back
 * into the port's CompletionRequest, so the reactive policy answers the wire exactly as it
 * answers in process. Tolerant of what it does not use; strict on what it needs (messages).
 */
import type { ChatMessage, CompletionRequest, ToolChoice, ToolSpec } from '../../model-provider.port';
import { isRecord } from '../../offline/json-values';

export class WireRequestError extends Error {}

/**
 * The openai adapter sends dotted tool names with "__" for the dots (openai/tool-name-codec.ts:
 * OpenAI function names allow no dot); the policy reads the names the runtime gave.
 */
export const fromWireName = (name: string) => name.replace(/__/g, '.');
export const toWireName = (name: string) => name.replace(/\./g, '__');

const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  // Content parts: the text parts joined (the adapter sends strings; other clients may not).
  if (Array.isArray(value))
    return value.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
};

function messageOf(value: unknown): ChatMessage {
  if (!isRecord(value)) throw new WireRequestError('a message is no object');
  switch (value.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: text(value.content) };
    case 'user':
      return { role: 'user', content: text(value.content) };
    case 'tool':
      return { role: 'tool', toolCallId: String(value.tool_call_id ?? ''), content: text(value.content) };
    case 'assistant': {
      const calls = Array.isArray(value.tool_calls) ? value.tool_calls : [];
      const toolCalls = calls.filter(isRecord).map((c) => {
        const fn = isRecord(c.function) ? c.function : {};
        return {
          id: String(c.id ?? ''),
          name: fromWireName(String(fn.name ?? '')),
          arguments: String(fn.arguments ?? '{}'),
        };
      });
      return { role: 'assistant', content: text(value.content), ...(toolCalls.length > 0 ? { toolCalls } : {}) };
    }
    default:
      throw new WireRequestError(`unknown message role ${JSON.stringify(value.role)}`);
  }
}

function toolOf(value: unknown): ToolSpec | undefined {
  if (!isRecord(value) || !isRecord(value.function)) return undefined;
  const fn = value.function;
  return {
    name: fromWireName(String(fn.name ?? '')),
    description: typeof fn.description === 'string' ? fn.description : '',
    parameters: isRecord(fn.parameters) ? fn.parameters : {},
  };
}

const functionName = (value: unknown) =>
  isRecord(value) && isRecord(value.function) && typeof value.function.name === 'string'
    ? fromWireName(value.function.name)
    : '';

/** tool_choice: a mode, a named function, or allowed_tools (its names become allowedTools). */
function choiceOf(value: unknown): Pick<CompletionRequest, 'toolChoice' | 'allowedTools'> {
  if (value === 'auto' || value === 'none' || value === 'required') return { toolChoice: value };
  if (!isRecord(value)) return {};
  if (value.type === 'function') return { toolChoice: { name: functionName(value) } satisfies ToolChoice };
  if (value.type === 'allowed_tools' && isRecord(value.allowed_tools)) {
    const allowed = value.allowed_tools;
    const names = Array.isArray(allowed.tools) ? allowed.tools.map(functionName) : [];
    return { allowedTools: names, toolChoice: allowed.mode === 'required' ? 'required' : 'auto' };
  }
  return {};
}

export function completionRequestOf(body: unknown): CompletionRequest {
  if (!isRecord(body) || !Array.isArray(body.messages)) throw new WireRequestError('the body has no messages');
  const tools = Array.isArray(body.tools) ? body.tools.map(toolOf).filter((t) => t !== undefined) : [];
  const format = isRecord(body.response_format) ? body.response_format : undefined;
  const schema = format?.type === 'json_schema' && isRecord(format.json_schema) ? format.json_schema : undefined;
  return {
    messages: body.messages.map(messageOf),
    tools,
    ...choiceOf(body.tool_choice),
    ...(schema !== undefined
      ? { responseFormat: { name: String(schema.name ?? ''), schema: isRecord(schema.schema) ? schema.schema : {} } }
      : {}),
    ...(typeof body.max_completion_tokens === 'number' ? { maxOutputTokens: body.max_completion_tokens } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
  };
}
