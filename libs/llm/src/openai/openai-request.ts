import type OpenAI from 'openai';
import { ModelBadRequestError } from '../model-errors';
import type { ChatMessage, CompletionRequest, ToolChoice, ToolSpec } from '../model-provider.port';

export type MaxTokensParameter = 'max_completion_tokens' | 'max_tokens';

type WireMessage = OpenAI.Chat.ChatCompletionMessageParam;
type WireParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

function toWireMessage(message: ChatMessage): WireMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // The API expects null, not "", beside tool calls; some compatible servers reject "".
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      };
    }
  }
}

const toWireTool = (tool: ToolSpec): OpenAI.Chat.ChatCompletionFunctionTool => ({
  type: 'function',
  function: { name: tool.name, description: tool.description, parameters: tool.parameters },
});

function toWireToolChoice(choice: ToolChoice, tools: readonly ToolSpec[]): OpenAI.Chat.ChatCompletionToolChoiceOption {
  if (typeof choice === 'string') return choice;
  // Caught here rather than by the server: the vendor's 400 would not say which tool is missing.
  if (!tools.some((t) => t.name === choice.name)) {
    throw new ModelBadRequestError(`toolChoice names "${choice.name}", which is not among the offered tools`);
  }
  return { type: 'function', function: { name: choice.name } };
}

/** Our request in the chat-completions wire format; `trace` stays on our side. */
export function toChatCompletionParams(
  request: CompletionRequest,
  options: { model: string; maxTokensParameter: MaxTokensParameter },
): WireParams {
  const params: WireParams = { model: options.model, messages: request.messages.map(toWireMessage), stream: false };
  if (request.responseFormat) {
    // A structured answer is the whole reply: no tools beside it (strict mode answers JSON text).
    const { name, schema } = request.responseFormat;
    params.response_format = { type: 'json_schema', json_schema: { name, schema, strict: true } };
  } else if (request.tools.length > 0) {
    params.tools = request.tools.map(toWireTool);
    if (request.toolChoice !== undefined) params.tool_choice = toWireToolChoice(request.toolChoice, request.tools);
  } else if (request.toolChoice !== undefined && request.toolChoice !== 'auto' && request.toolChoice !== 'none') {
    throw new ModelBadRequestError(`toolChoice ${JSON.stringify(request.toolChoice)} needs at least one tool`);
  }
  // OpenAI rejects an empty tools array, so "no tools" is sent as no field at all.
  if (request.maxOutputTokens !== undefined) params[options.maxTokensParameter] = request.maxOutputTokens;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  return params;
}
