import type { CompletionRequest } from '../model-provider.port';
import { chatCompletionBody } from '../testing/fake-openai-server';
import { toChatCompletionParams } from './openai-request';
import { fromChatCompletion } from './openai-response';

const wire = { model: 'm', maxTokensParameter: 'max_completion_tokens' } as const;
const tool = { name: 'take_note', description: 'd', parameters: { type: 'object' } };
const base: CompletionRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [tool] };

describe('toChatCompletionParams', () => {
  it('sends a response format as strict json_schema and offers no tools beside it', () => {
    const schema = { type: 'object', properties: {}, required: [], additionalProperties: false };
    const params = toChatCompletionParams(
      { ...base, toolChoice: 'auto', responseFormat: { name: 'route_message', schema } },
      wire,
    );
    expect(params.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'route_message', schema, strict: true },
    });
    expect(params).not.toHaveProperty('tools');
    expect(params).not.toHaveProperty('tool_choice');
  });

  it('passes string tool choices through and sends max_tokens when configured so', () => {
    const params = toChatCompletionParams(
      { ...base, toolChoice: 'required', maxOutputTokens: 9 },
      { model: 'm', maxTokensParameter: 'max_tokens' },
    );
    expect(params).toMatchObject({ tool_choice: 'required', max_tokens: 9 });
    expect(params).not.toHaveProperty('max_completion_tokens');
  });

  it('keeps assistant text beside tool calls and omits tool_calls when there are none', () => {
    const params = toChatCompletionParams(
      {
        ...base,
        messages: [
          { role: 'assistant', content: 'Let me check', toolCalls: [{ id: 'c1', name: 'take_note', arguments: '{}' }] },
          { role: 'assistant', content: 'Done', toolCalls: [] },
        ],
      },
      wire,
    );
    expect(params.messages[0]).toMatchObject({ content: 'Let me check', tool_calls: [{ id: 'c1' }] });
    expect(params.messages[1]).toEqual({ role: 'assistant', content: 'Done' });
  });

  it('refuses a tool choice that cannot be honoured, before anything is sent', () => {
    expect(() => toChatCompletionParams({ ...base, toolChoice: { name: 'other' } }, wire)).toThrow(
      expect.objectContaining({ code: 'MODEL_BAD_REQUEST' }),
    );
    expect(() => toChatCompletionParams({ ...base, tools: [], toolChoice: 'required' }, wire)).toThrow(
      expect.objectContaining({ code: 'MODEL_BAD_REQUEST' }),
    );
    expect(toChatCompletionParams({ ...base, tools: [], toolChoice: 'none' }, wire)).not.toHaveProperty('tool_choice');
  });
});

describe('toChatCompletionParams: prompt cache key and allowed tools', () => {
  const tools = ['a', 'b', 'c'].map((name) => ({ ...tool, name }));
  const masked = (extra: Partial<CompletionRequest>, sendAllowedTools = true) =>
    toChatCompletionParams({ ...base, tools, ...extra }, { ...wire, sendAllowedTools });
  const allowedTools = (...names: string[]) => ({
    type: 'allowed_tools',
    allowed_tools: { mode: 'auto', tools: names.map((name) => ({ type: 'function', function: { name } })) },
  });

  it('sends the cache key as prompt_cache_key, and nothing when there is none', () => {
    expect(toChatCompletionParams({ ...base, cacheKey: 'task-1' }, wire).prompt_cache_key).toBe('task-1');
    expect(toChatCompletionParams(base, wire)).not.toHaveProperty('prompt_cache_key');
  });

  it('sends every definition and restricts the choice to the allowed ones, in the order of the tools', () => {
    const params = masked({ allowedTools: ['c', 'a'] });
    expect(params.tools?.map((t) => (t.type === 'function' ? t.function.name : t.type))).toEqual(['a', 'b', 'c']);
    expect(params.tool_choice).toEqual(allowedTools('a', 'c'));
    expect(masked({ allowedTools: ['a'], toolChoice: 'required' }).tool_choice).toMatchObject({
      allowed_tools: { mode: 'required' },
    });
    expect(masked({ allowedTools: ['a', 'b'], toolChoice: { name: 'b' } }).tool_choice).toEqual({
      type: 'function',
      function: { name: 'b' },
    });
  });

  it('sends plain auto (or the caller’s choice) when the endpoint does not support allowed_tools', () => {
    expect(masked({ allowedTools: ['a'] }, false).tool_choice).toBe('auto');
    expect(masked({ allowedTools: ['a'], toolChoice: 'required' }, false).tool_choice).toBe('required');
  });

  it('allows no call when the allowed list is empty or the choice is none', () => {
    expect(masked({ allowedTools: [] }).tool_choice).toBe('none');
    expect(masked({ allowedTools: [] }, false).tool_choice).toBe('none');
    expect(masked({ allowedTools: ['a'], toolChoice: 'none' }).tool_choice).toBe('none');
  });

  it('leaves tool_choice alone without allowedTools', () => {
    expect(masked({})).not.toHaveProperty('tool_choice');
    expect(masked({ toolChoice: 'auto' }).tool_choice).toBe('auto');
  });

  it.each([
    ['a name that is not offered', { allowedTools: ['a', 'zzz'] }],
    ['a named choice outside the allowed set', { allowedTools: ['a'], toolChoice: { name: 'b' } }],
    ['required with nothing allowed', { allowedTools: [], toolChoice: 'required' }],
    ['allowed tools without any tool', { tools: [], allowedTools: ['a'] }],
  ] as const)('refuses %s before anything is sent', (_label, extra) => {
    expect(() => masked(extra as Partial<CompletionRequest>)).toThrow(
      expect.objectContaining({ code: 'MODEL_BAD_REQUEST' }),
    );
  });
});

describe('fromChatCompletion', () => {
  const call = { id: 'c1', name: 'take_note', arguments: '{"text":"a"}' };

  it.each([
    ['stop', [], 'stop'],
    ['length', [], 'length'],
    ['content_filter', [], 'content_filter'],
    ['function_call', [call], 'tool_calls'],
    // Compatible servers that say "stop" beside tool calls: the calls decide.
    ['stop', [call], 'tool_calls'],
  ] as const)('maps finish_reason %s with %j calls to %s', (raw, toolCalls, expected) => {
    expect(fromChatCompletion(chatCompletionBody({ finishReason: raw, toolCalls }), 'm').finishReason).toBe(expected);
  });

  it('rejects finish_reason tool_calls without any tool call', () => {
    expect(() => fromChatCompletion(chatCompletionBody({ finishReason: 'tool_calls' }), 'm')).toThrow(
      expect.objectContaining({ code: 'MODEL_INVALID_RESPONSE' }),
    );
  });

  it('tolerates what compatible servers leave out or shape differently', () => {
    const body = {
      choices: [
        {
          finish_reason: null,
          message: {
            content: null,
            tool_calls: [{ id: 'c9', function: { name: 'take_note', arguments: { text: 'x' } } }],
          },
        },
      ],
    };
    expect(fromChatCompletion(body, 'local-model')).toEqual({
      text: '',
      toolCalls: [{ id: 'c9', name: 'take_note', arguments: '{"text":"x"}' }],
      usage: { inputTokens: 0, outputTokens: 0 },
      finishReason: 'tool_calls',
      model: 'local-model',
    });
  });

  it('surfaces a refusal as the reply text', () => {
    const body = {
      choices: [{ finish_reason: 'stop', message: { content: null, refusal: 'I cannot help with that.' } }],
    };
    expect(fromChatCompletion(body, 'm').text).toBe('I cannot help with that.');
  });

  it('maps a refusal to MODEL_REFUSED (not retriable) when a structured answer was asked for', () => {
    const body = {
      choices: [{ finish_reason: 'stop', message: { content: null, refusal: 'I cannot help with that.' } }],
    };
    expect(() => fromChatCompletion(body, 'm', { structured: true })).toThrow(
      expect.objectContaining({ code: 'MODEL_REFUSED', retriable: false, refusal: 'I cannot help with that.' }),
    );
  });

  const customToolCall = {
    choices: [
      {
        finish_reason: 'tool_calls',
        message: { tool_calls: [{ id: 'x', type: 'custom', custom: { name: 'n', input: '' } }] },
      },
    ],
  };
  it.each([
    ['an HTML error page', '<html>502</html>'],
    ['no choices', { choices: [] }],
    ['a custom (non-function) tool call', customToolCall],
  ])('rejects %s as MODEL_INVALID_RESPONSE', (_label, body) => {
    expect(() => fromChatCompletion(body, 'm')).toThrow(expect.objectContaining({ code: 'MODEL_INVALID_RESPONSE' }));
  });
});
