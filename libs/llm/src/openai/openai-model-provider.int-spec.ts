import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CompletionRequest } from '../model-provider.port';
import { describeModelProviderContract } from '../testing/model-provider.contract';
import {
  chatCompletionBody,
  errorReply,
  startFakeOpenAIServer,
  type FakeOpenAIReply,
  type FakeOpenAIServer,
} from '../testing/fake-openai-server';
import { prefixBytesOf } from '../testing/request-prefix';
import { completeStructured } from '../structured/structured-output';
import { OpenAIModelProvider } from './openai-model-provider';
import type { OpenAIModelProviderOptions } from './openai-options';

const hello: CompletionRequest = { messages: [{ role: 'user', content: 'Hello' }], tools: [] };

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: readonly FakeOpenAIReply[], options: Partial<OpenAIModelProviderOptions> = {}) {
  server = await startFakeOpenAIServer(replies);
  const provider = new OpenAIModelProvider({
    apiKey: 'sk-test',
    model: 'gpt-test',
    baseUrl: server.baseUrl,
    initialRetryDelayMs: 5,
    maxRetryDelayMs: 20,
    ...options,
  });
  return { provider, server };
}

const gapMs = (s: FakeOpenAIServer) => s.requests[1].receivedAt - s.requests[0].receivedAt;

describe('OpenAIModelProvider against a local chat-completions server', () => {
  it('maps a plain reply, its usage and the request it sent', async () => {
    const { provider, server } = await setup([
      { body: chatCompletionBody({ content: 'Hi there', usage: { prompt: 30, completion: 4, cached: 16 } }) },
    ]);
    const result = await provider.complete({ ...hello, trace: { taskId: 't1', step: 1 } });

    expect(result).toEqual({
      text: 'Hi there',
      toolCalls: [],
      usage: { inputTokens: 30, outputTokens: 4, cachedInputTokens: 16 },
      finishReason: 'stop',
      model: 'gpt-fake-2024-01-01',
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    // No empty tools array, no trace, streaming explicitly off.
    expect(request.body).toEqual({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hello' }], stream: false });
  });

  it('sends tools, tool_choice and tool results, and maps the tool calls it gets back', async () => {
    const { provider, server } = await setup([
      {
        body: chatCompletionBody({
          toolCalls: [
            { id: 'call_a', name: 'take_note', arguments: '{"text":"buy milk"}' },
            { id: 'call_b', name: 'list_history', arguments: '{}' },
          ],
        }),
      },
    ]);
    const parameters = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
    const result = await provider.complete({
      messages: [
        { role: 'system', content: 'You are Lomo.' },
        { role: 'user', content: 'Remember to buy milk' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'take_note', arguments: '{"text":"x"}' }] },
        { role: 'tool', toolCallId: 'call_0', content: '{"noteId":"n1"}' },
      ],
      tools: [
        { name: 'take_note', description: 'Write a note', parameters },
        { name: 'list_history', description: 'List history', parameters: { type: 'object', properties: {} } },
      ],
      toolChoice: { name: 'take_note' },
      maxOutputTokens: 256,
      temperature: 0.2,
    });

    expect(result.toolCalls).toEqual([
      { id: 'call_a', name: 'take_note', arguments: '{"text":"buy milk"}' },
      { id: 'call_b', name: 'list_history', arguments: '{}' },
    ]);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.text).toBe('');
    expect(server.requests[0].body).toEqual({
      model: 'gpt-test',
      stream: false,
      max_completion_tokens: 256,
      temperature: 0.2,
      tools: [
        { type: 'function', function: { name: 'take_note', description: 'Write a note', parameters } },
        {
          type: 'function',
          function: {
            name: 'list_history',
            description: 'List history',
            parameters: { type: 'object', properties: {} },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'take_note' } },
      messages: [
        { role: 'system', content: 'You are Lomo.' },
        { role: 'user', content: 'Remember to buy milk' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'take_note', arguments: '{"text":"x"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_0', content: '{"noteId":"n1"}' },
      ],
    });
  });

  it('retries a 429 after the retry-after the server asked for', async () => {
    const delays: number[] = [];
    const { provider, server } = await setup(
      [
        errorReply(429, 'Rate limit reached', { type: 'requests', headers: { 'retry-after': '1' } }),
        { body: chatCompletionBody() },
      ],
      { onRetry: (_error, _attempt, delayMs) => void delays.push(delayMs) },
    );
    await expect(provider.complete(hello)).resolves.toMatchObject({ text: 'ok' });
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([1000]);
    expect(gapMs(server)).toBeGreaterThanOrEqual(950);
  });

  it('caps a long retry-after at maxRetryAfterMs', async () => {
    const { provider, server } = await setup(
      [errorReply(429, 'slow down', { headers: { 'retry-after': '60' } }), { body: chatCompletionBody() }],
      { maxRetryAfterMs: 150 },
    );
    await provider.complete(hello);
    expect(gapMs(server)).toBeGreaterThanOrEqual(140);
    expect(gapMs(server)).toBeLessThan(1000);
  });

  it('retries a 500 and succeeds', async () => {
    const { provider, server } = await setup([
      errorReply(500, 'The server had an error', { type: 'server_error' }),
      { body: chatCompletionBody({ content: 'second' }) },
    ]);
    await expect(provider.complete(hello)).resolves.toMatchObject({ text: 'second' });
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after maxRetries with the last retriable error', async () => {
    const busy = errorReply(503, 'overloaded', { type: 'server_error' });
    const { provider, server } = await setup([busy, busy, busy, busy], { maxRetries: 2 });
    await expect(provider.complete(hello)).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE', retriable: true });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400: exactly one request, MODEL_BAD_REQUEST', async () => {
    const { provider, server } = await setup([
      errorReply(400, "Invalid 'messages[0].role'", { code: 'invalid_value' }),
      { body: chatCompletionBody() },
    ]);
    const error = await provider.complete(hello).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'MODEL_BAD_REQUEST',
      retriable: false,
      details: { status: 400, vendorCode: 'invalid_value' },
    });
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [401, 'MODEL_AUTH_FAILED', null],
    [403, 'MODEL_AUTH_FAILED', null],
    [422, 'MODEL_BAD_REQUEST', null],
    [429, 'MODEL_RATE_LIMITED', 'insufficient_quota'],
  ])('does not retry %i: %s (vendor code %s)', async (status, code, vendorCode) => {
    const { provider, server } = await setup([
      errorReply(status, 'no', { code: vendorCode }),
      { body: chatCompletionBody() },
    ]);
    await expect(provider.complete(hello)).rejects.toMatchObject({ code, retriable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('aborts a request in flight quickly with MODEL_ABORTED and does not retry it', async () => {
    const { provider, server } = await setup([{ hang: 'before-headers' }, { body: chatCompletionBody() }]);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    await expect(provider.complete({ ...hello, signal: controller.signal })).rejects.toMatchObject({
      code: 'MODEL_ABORTED',
      retriable: false,
    });
    expect(Date.now() - started).toBeLessThan(500);
    expect(server.requests).toHaveLength(1);
  });

  it('aborts during the wait before a retry', async () => {
    const { provider, server } = await setup([errorReply(429, 'wait', { headers: { 'retry-after-ms': '5000' } })]);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    await expect(provider.complete({ ...hello, signal: controller.signal })).rejects.toMatchObject({
      code: 'MODEL_ABORTED',
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });

  it('times out when no headers arrive, retrying the timeout as retriable', async () => {
    const { provider, server } = await setup([{ hang: 'before-headers' }, { hang: 'before-headers' }], {
      timeoutMs: 200,
      maxRetries: 1,
    });
    await expect(provider.complete(hello)).rejects.toMatchObject({ code: 'MODEL_TIMEOUT', retriable: true });
    expect(server.requests).toHaveLength(2);
  });

  it('times out when the body stalls after the headers', async () => {
    const { provider } = await setup([{ hang: 'mid-body' }], { timeoutMs: 200, maxRetries: 0 });
    const started = Date.now();
    await expect(provider.complete(hello)).rejects.toMatchObject({ code: 'MODEL_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reports a refused connection as MODEL_UNAVAILABLE', async () => {
    const { provider, server } = await setup([], { maxRetries: 0 });
    await server.close();
    await expect(provider.complete(hello)).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE', retriable: true });
  });

  it('rejects a 200 that is not a chat completion as MODEL_INVALID_RESPONSE, without retrying', async () => {
    const { provider, server } = await setup([{ body: { object: 'list', data: [] } }, { body: chatCompletionBody() }]);
    await expect(provider.complete(hello)).rejects.toMatchObject({ code: 'MODEL_INVALID_RESPONSE', retriable: false });
    expect(server.requests).toHaveLength(1);
  });
});

describeModelProviderContract('openai (local server)', async () => {
  const local = await startFakeOpenAIServer(() => ({ body: chatCompletionBody({ content: 'Hello!' }) }));
  return {
    provider: new OpenAIModelProvider({ apiKey: 'sk-test', model: 'gpt-test', baseUrl: local.baseUrl }),
    close: () => local.close(),
  };
});

describe('OpenAIModelProvider with dotted tool names', () => {
  it('sends "notes.create" as "notes__create" (OpenAI allows no dots) and maps the call back', async () => {
    const { provider, server } = await setup([
      { body: chatCompletionBody({ toolCalls: [{ id: 'call_1', name: 'notes__create', arguments: '{"text":"x"}' }] }) },
    ]);
    const result = await provider.complete({
      messages: [
        { role: 'user', content: 'note this' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'notes.list', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'call_0', content: '[]' },
      ],
      tools: [
        { name: 'notes.create', description: 'Write a note', parameters: { type: 'object', properties: {} } },
        { name: 'notes.list', description: 'List notes', parameters: { type: 'object', properties: {} } },
      ],
      toolChoice: { name: 'notes.create' },
    });
    expect(result.toolCalls).toEqual([{ id: 'call_1', name: 'notes.create', arguments: '{"text":"x"}' }]);
    const body = server.requests[0].body as {
      tools: { function: { name: string } }[];
      tool_choice: { function: { name: string } };
      messages: { tool_calls?: { function: { name: string } }[] }[];
    };
    expect(body.tools.map((t) => t.function.name)).toEqual(['notes__create', 'notes__list']);
    expect(body.tool_choice.function.name).toBe('notes__create');
    expect(body.messages[1].tool_calls?.[0].function.name).toBe('notes__list');
  });

  it('refuses two tools whose wire names would collide, before sending anything', async () => {
    const { provider, server } = await setup([]);
    const parameters = { type: 'object', properties: {} };
    await expect(
      provider.complete({
        ...hello,
        tools: [
          { name: 'a.b', description: 'x', parameters },
          { name: 'a__b', description: 'y', parameters },
        ],
      }),
    ).rejects.toMatchObject({ code: 'MODEL_BAD_REQUEST' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('OpenAIModelProvider: structured output against a local chat-completions server', () => {
  const Verdict = z.strictObject({ verdict: z.enum(['yes', 'no']), note: z.string().nullable() });
  const spec = { name: 'yes_or_no', schema: Verdict };
  const question: CompletionRequest = { messages: [{ role: 'user', content: 'Is water wet?' }], tools: [] };

  it('sends response_format json_schema strict on the wire and returns the validated answer', async () => {
    const { provider, server } = await setup([
      { body: chatCompletionBody({ content: '{"verdict":"yes","note":null}', usage: { prompt: 40, completion: 9 } }) },
    ]);
    const result = await completeStructured(provider, question, spec);
    expect(result).toEqual({
      value: { verdict: 'yes', note: null },
      attempts: 1,
      usage: { inputTokens: 40, outputTokens: 9, cachedInputTokens: 0 },
      model: 'gpt-fake-2024-01-01',
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body).toEqual({
      model: 'gpt-test',
      stream: false,
      messages: [{ role: 'user', content: 'Is water wet?' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'yes_or_no',
          strict: true,
          schema: {
            type: 'object',
            properties: { verdict: { type: 'string', enum: ['yes', 'no'] }, note: { type: ['string', 'null'] } },
            required: ['verdict', 'note'],
            additionalProperties: false,
          },
        },
      },
    });
  });

  it('retries an invalid answer once, telling the model why, then gives MODEL_INVALID_OUTPUT', async () => {
    const { provider, server } = await setup([
      { body: chatCompletionBody({ content: 'Sure! {"verdict":' }) },
      { body: chatCompletionBody({ content: '{"verdict":"perhaps","note":null}' }) },
      { body: chatCompletionBody({ content: '{"verdict":"yes","note":null}' }) },
    ]);
    const error = await completeStructured(provider, question, spec).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_INVALID_OUTPUT', retriable: false, attempts: 2 });
    expect(server.requests).toHaveLength(2);
    const retried = server.requests[1].body as { messages: { role: string; content: string }[] };
    expect(retried.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(retried.messages[1].content).toBe('Sure! {"verdict":');
    expect(retried.messages[2].content).toContain('not valid JSON');
  });

  it('maps a refusal to MODEL_REFUSED without retrying', async () => {
    const refusal = chatCompletionBody({ content: null });
    const [choice] = refusal.choices as { message: Record<string, unknown> }[];
    choice.message.refusal = 'I will not answer that.';
    const { provider, server } = await setup([{ body: refusal }, { body: chatCompletionBody() }]);
    await expect(completeStructured(provider, question, spec)).rejects.toMatchObject({ code: 'MODEL_REFUSED' });
    expect(server.requests).toHaveLength(1);
  });

  it('keeps a timeout the adapter’s MODEL_TIMEOUT, retried by the adapter, not asked again as invalid output', async () => {
    const { provider, server } = await setup([{ hang: 'before-headers' }, { hang: 'before-headers' }], {
      timeoutMs: 200,
      maxRetries: 1,
    });
    await expect(completeStructured(provider, question, spec)).rejects.toMatchObject({
      code: 'MODEL_TIMEOUT',
      retriable: true,
    });
    expect(server.requests).toHaveLength(2);
  });
});

describe('OpenAIModelProvider: prompt caching and masked tools, on the wire', () => {
  const parameters = { type: 'object', properties: { text: { type: 'string' } } };
  const TOOLS = ['notes.create', 'notes.list', 'image.generate', 'video.generate'].map((name) => ({
    name,
    description: `The ${name} tool`,
    parameters,
  }));
  const RULES = { role: 'system', content: 'You are Lomo. Rules: keep the brief in view.' } as const;
  const step = (n: number, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
    messages: [
      RULES,
      { role: 'user', content: `step ${n}: make a poster` },
      { role: 'system', content: `checklist at step ${n}` },
    ],
    tools: TOOLS,
    cacheKey: 'task-42',
    ...extra,
  });
  const sha = (raw: Buffer) => createHash('sha256').update(prefixBytesOf(raw)).digest('hex');
  const reply = () => ({ body: chatCompletionBody({ usage: { prompt: 2_000, completion: 5, cached: 1_792 } }) });

  it('sends prompt_cache_key, allowed_tools through the name codec, and reads the cached tokens', async () => {
    server = await startFakeOpenAIServer(reply);
    const provider = new OpenAIModelProvider({ apiKey: 'sk-test', model: 'gpt-test', baseUrl: server.baseUrl });
    const result = await provider.complete(step(1, { allowedTools: ['image.generate', 'notes.create'] }));

    expect(result.usage).toEqual({ inputTokens: 2_000, outputTokens: 5, cachedInputTokens: 1_792 });
    const body = server.requests[0].body as Record<string, unknown>;
    expect(body.prompt_cache_key).toBe('task-42');
    expect(body.tool_choice).toEqual({
      type: 'allowed_tools',
      allowed_tools: {
        mode: 'auto',
        tools: [
          { type: 'function', function: { name: 'notes__create' } },
          { type: 'function', function: { name: 'image__generate' } },
        ],
      },
    });
    expect((body.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([
      'notes__create',
      'notes__list',
      'image__generate',
      'video__generate',
    ]);
  });

  it('sends plain auto instead when the endpoint does not support allowed_tools', async () => {
    server = await startFakeOpenAIServer(reply);
    const provider = new OpenAIModelProvider({
      apiKey: 'sk-test',
      model: 'gpt-test',
      baseUrl: server.baseUrl,
      sendAllowedTools: false,
    });
    await provider.complete(step(1, { allowedTools: ['notes.create'] }));
    const body = server.requests[0].body as Record<string, unknown>;
    expect(body.tool_choice).toBe('auto');
    expect(body.prompt_cache_key).toBe('task-42');
    expect(body.tools).toHaveLength(4);
  });

  it('keeps the prefix bytes identical while only the tail and the allowed set change; a new tool set changes them', async () => {
    server = await startFakeOpenAIServer(reply);
    const provider = new OpenAIModelProvider({ apiKey: 'sk-test', model: 'gpt-test', baseUrl: server.baseUrl });
    const allowedSets = [undefined, ['notes.create'], ['image.generate', 'video.generate'], []];
    for (let n = 0; n < 8; n += 1) await provider.complete(step(n, { allowedTools: allowedSets[n % 4] }));
    await provider.complete(step(8, { tools: TOOLS.slice(0, 3) }));
    await provider.complete(step(9, { messages: [{ ...RULES, content: `${RULES.content} Profile v2.` }] }));

    const hashes = server.requests.map((r) => sha(r.raw));
    expect(new Set(hashes.slice(0, 8)).size).toBe(1);
    // The bodies themselves differ (tail, tool_choice); only the prefix is shared.
    expect(new Set(server.requests.slice(0, 8).map((r) => r.raw.toString('utf8'))).size).toBe(8);
    expect(hashes[8]).not.toBe(hashes[0]);
    expect(hashes[9]).not.toBe(hashes[0]);
    // The prefix is the system rules then the tools, exactly as the adapter wrote them.
    const prefix = prefixBytesOf(server.requests[0].raw).toString('utf8');
    expect(prefix.startsWith(`${JSON.stringify(RULES)}\n[{"type":"function","function":{"name":"notes__create"`)).toBe(
      true,
    );
  });
});
