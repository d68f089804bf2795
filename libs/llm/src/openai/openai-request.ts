import type OpenAI from 'openai';
import { ModelBadRequestError } from '../model-errors';
import type { ChatMessage, CompletionRequest, ToolSpec } from '../model-provider.port';

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

const namedChoice = (name: string): OpenAI.Chat.ChatCompletionNamedToolChoice => ({
  type: 'function',
  function: { name },
});

/**
 * The wire tool_choice for a request, or undefined for none (the server's default, `auto`).
 * `allowedTools` restricts what the model may call without touching `tools`, so the cached prefix
 * (system messages and tool definitions) stays byte-identical while the allowed set changes; an
 * endpoint that does not know `allowed_tools` gets the plain choice instead, and the server-side
 * refusal of a call outside the allowed set stays the guard. Inconsistent names are caught here,
 * before anything is sent: the vendor's 400 would not say which tool is missing.
 */
function toWireToolChoice(
  request: CompletionRequest,
  sendAllowedTools: boolean,
): OpenAI.Chat.ChatCompletionToolChoiceOption | undefined {
  const { toolChoice, tools, allowedTools } = request;
  const offered = new Set(tools.map((t) => t.name));
  if (typeof toolChoice === 'object' && !offered.has(toolChoice.name)) {
    throw new ModelBadRequestError(`toolChoice names "${toolChoice.name}", which is not among the offered tools`);
  }
  if (allowedTools === undefined) return typeof toolChoice === 'object' ? namedChoice(toolChoice.name) : toolChoice;

  const allowed = new Set(allowedTools);
  const unknown = [...allowed].filter((name) => !offered.has(name));
  if (unknown.length > 0) {
    throw new ModelBadRequestError(`allowedTools names ${unknown.join(', ')}, not among the offered tools`, {
      unknown,
    });
  }
  if (typeof toolChoice === 'object') {
    if (!allowed.has(toolChoice.name))
      throw new ModelBadRequestError(`toolChoice names "${toolChoice.name}", which allowedTools does not allow`);
    return namedChoice(toolChoice.name);
  }
  if (allowed.size === 0 && toolChoice === 'required')
    throw new ModelBadRequestError('toolChoice "required" with no allowed tool');
  if (allowed.size === 0 || toolChoice === 'none') return 'none';
  if (!sendAllowedTools) return toolChoice ?? 'auto';
  return {
    type: 'allowed_tools',
    allowed_tools: {
      mode: toolChoice === 'required' ? 'required' : 'auto',
      // In the order of `tools`, whatever order the caller listed them in: the same set is the same bytes.
      tools: tools.filter((t) => allowed.has(t.name)).map((t) => ({ type: 'function', function: { name: t.name } })),
    },
  };
}

/** Our request in the chat-completions wire format; `trace` stays on our side. */
export function toChatCompletionParams(
  request: CompletionRequest,
  options: { model: string; maxTokensParameter: MaxTokensParameter; sendAllowedTools?: boolean },
): WireParams {
  const params: WireParams = { model: options.model, messages: request.messages.map(toWireMessage), stream: false };
  if (request.responseFormat) {
    // A structured answer is the whole reply: no tools beside it (strict mode answers JSON text).
    const { name, schema } = request.responseFormat;
    params.response_format = { type: 'json_schema', json_schema: { name, schema, strict: true } };
  } else if (request.tools.length > 0) {
    params.tools = request.tools.map(toWireTool);
    const choice = toWireToolChoice(request, options.sendAllowedTools ?? true);
    if (choice !== undefined) params.tool_choice = choice;
  } else if (request.toolChoice !== undefined && request.toolChoice !== 'auto' && request.toolChoice !== 'none') {
    throw new ModelBadRequestError(`toolChoice ${JSON.stringify(request.toolChoice)} needs at least one tool`);
  } else if (request.allowedTools !== undefined && request.allowedTools.length > 0) {
    throw new ModelBadRequestError(`allowedTools names ${request.allowedTools.join(', ')}, but no tool is offered`);
  }
  // OpenAI rejects an empty tools array, so "no tools" is sent as no field at all.
  if (request.maxOutputTokens !== undefined) params[options.maxTokensParameter] = request.maxOutputTokens;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.cacheKey !== undefined) params.prompt_cache_key = request.cacheKey;
  return params;
}
