import { ROUTING_ANSWER_SCHEMA_NAME, RoutingAnswer, type RoutingPrompt } from '@lomo/contracts';
import type { CompletionRequest } from '../../model-provider.port';
import { OpenAIModelProvider } from '../../openai/openai-model-provider';
import { completeStructured } from '../../structured/structured-output';
import { ReactiveModelProvider } from '../reactive-model-provider';
import { marker, ok, person, RULES, step, taskState, TOOLS } from '../reactive-prompts.fixtures';
import { startReactiveOpenAIServer, type ReactiveOpenAIServer } from './reactive-openai-server';

// The reactive policy over the wire: the openai adapter, through the real SDK and a socket, gets
// the answers the provider gives in process.

describe('the reactive policy served over the chat-completions wire format', () => {
  let server: ReactiveOpenAIServer;
  let wire: OpenAIModelProvider;
  const inProcess = new ReactiveModelProvider();

  beforeAll(async () => {
    server = await startReactiveOpenAIServer();
    wire = new OpenAIModelProvider({ apiKey: 'test-key', model: 'reactive', baseUrl: server.baseUrl, maxRetries: 0 });
  });
  afterAll(async () => server.close());

  it('answers a task step with the same calls as in process (recalled preferences included)', async () => {
    const request: CompletionRequest = {
      messages: [
        RULES,
        marker('message'),
        taskState('a poster of a fox'),
        {
          role: 'system',
          content:
            'Remembered about the person (recalled for this step; the brief and the latest messages win over these):\n- main colour: blue (said by the person; since 2026-12-01)',
        },
        person('make a poster of a fox'),
      ],
      tools: TOOLS,
      allowedTools: TOOLS.map((t) => t.name),
    };
    const [overWire, direct] = await Promise.all([wire.complete(request), inProcess.complete(request)]);
    expect(overWire.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual(
      direct.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
    );
    expect(JSON.parse(overWire.toolCalls[0].arguments).prompt).toContain('main colour: blue');
    expect(overWire.finishReason).toBe('tool_calls');
  });

  it('reads the dotted tool names the adapter sends as "__" (a plan step keys on checklist.plan, document.write)', async () => {
    const request: CompletionRequest = {
      messages: [
        RULES,
        marker('message'),
        person('I want a series of three posters for the autumn fair'),
        ...step('c1', 'checklist.update', { itemId: 'concept', status: 'done' }, ok({ itemId: 'concept' })),
        taskState('a series of three posters for the autumn fair', [
          '- [done] concept: Concept {output: artifact}',
          '- [pending] layouts: Layouts {output: artifact}',
        ]),
      ],
      tools: TOOLS,
    };
    const [overWire, direct] = await Promise.all([wire.complete(request), inProcess.complete(request)]);
    expect(direct.toolCalls.map((c) => c.name)).toEqual(['document.write']);
    expect(overWire.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual(
      direct.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
    );
  });

  it('answers the router (a strict json_schema response format) as the provider does', async () => {
    const prompt: RoutingPrompt = {
      message: { text: 'make a poster of a fox', language: 'en', channel: 'ui' },
      candidates: [],
      pendingClarification: null,
    };
    const request = {
      messages: [
        { role: 'system' as const, content: 'Route the message.' },
        { role: 'user' as const, content: JSON.stringify(prompt) },
      ],
      tools: [],
    };
    const spec = { name: ROUTING_ANSWER_SCHEMA_NAME, schema: RoutingAnswer };
    const overWire = await completeStructured(wire, request, spec);
    const direct = await completeStructured(inProcess, request, spec);
    expect(overWire.value).toEqual(direct.value);
    expect(server.answered()).toBeGreaterThanOrEqual(2);
  });

  it('refuses another route with a 404 and an unreadable body with a 400, in the OpenAI error envelope', async () => {
    const other = await fetch(`${server.baseUrl}/embeddings`, { method: 'POST', body: '{}' });
    expect(other.status).toBe(404);
    const bad = await fetch(`${server.baseUrl}/chat/completions`, { method: 'POST', body: '{"messages": 3}' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('answers a structured call it does not know through the `structured` hook a drill plugs in', async () => {
    const withHook = await startReactiveOpenAIServer({
      structured: (name) => (name === 'memory_extraction' ? JSON.stringify({ candidates: [] }) : undefined),
    });
    try {
      const client = new OpenAIModelProvider({
        apiKey: 'k',
        model: 'reactive',
        baseUrl: withHook.baseUrl,
        maxRetries: 0,
      });
      const result = await client.complete({
        messages: [{ role: 'user', content: '{}' }],
        tools: [],
        responseFormat: { name: 'memory_extraction', schema: { type: 'object' } },
      });
      expect(JSON.parse(result.text)).toEqual({ candidates: [] });
      // Without the hook the policy knows no such format: a 400, as a vendor would refuse it.
      await expect(
        wire.complete({
          messages: [{ role: 'user', content: '{}' }],
          tools: [],
          responseFormat: { name: 'memory_extraction', schema: { type: 'object' } },
        }),
      ).rejects.toMatchObject({ code: 'MODEL_BAD_REQUEST' });
    } finally {
      await withHook.close();
    }
  });
});
