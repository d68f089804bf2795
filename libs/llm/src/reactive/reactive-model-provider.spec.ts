import { ROUTING_ANSWER_SCHEMA_NAME, RoutingAnswer, type RoutingPrompt } from '@lomo/contracts';
import type { CompletionRequest } from '../model-provider.port';
import { OfflineModelProvider } from '../offline/offline-model-provider';
import { completeStructured } from '../structured/structured-output';
import { ReactiveModelProvider, REACTIVE_MODEL_NAME } from './reactive-model-provider';
import { marker, person, RULES, taskState, TOOLS } from './reactive-prompts.fixtures';

// The provider: side calls are the offline policy's, task steps the reactive rules', and every
// answer depends on the request alone.

const reactive = new ReactiveModelProvider();
const offline = new OfflineModelProvider();

describe('ReactiveModelProvider', () => {
  it('answers the router exactly as the offline policy does (structured side calls are delegated)', async () => {
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
    const mine = await completeStructured(reactive, request, spec);
    const theirs = await completeStructured(offline, request, spec);
    expect(mine.value).toEqual(theirs.value);
    expect(mine.value).toMatchObject({ outcome: 'new' });
  });

  it('answers a history summary (no tools, no format) with nothing, so the runtime keeps its extractive summary', async () => {
    const request: CompletionRequest = {
      messages: [
        { role: 'system', content: 'Summarize these steps.' },
        { role: 'user', content: 'Person: make a poster' },
      ],
      tools: [],
    };
    const [mine, theirs] = await Promise.all([reactive.complete(request), offline.complete(request)]);
    expect(mine).toMatchObject({ text: '', toolCalls: [], finishReason: 'stop' });
    // The offline policy would have answered with its greeting, which a summarizer would keep.
    expect(theirs.text).not.toBe('');
  });

  it('keeps nothing between calls: the same task step gets the same answer, whatever came between', async () => {
    const step: CompletionRequest = {
      messages: [RULES, marker('message'), taskState('a poster of a fox'), person('make a poster of a fox')],
      tools: TOOLS,
    };
    const first = await reactive.complete(step);
    await reactive.complete({ ...step, messages: [...step.messages.slice(0, -1), person('make a poster of an owl')] });
    const again = await reactive.complete(step);
    expect(again).toEqual(first);
    expect(first).toMatchObject({ model: REACTIVE_MODEL_NAME, finishReason: 'tool_calls' });
  });

  it('rejects a request whose signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(reactive.complete({ messages: [], tools: TOOLS, signal: controller.signal })).rejects.toMatchObject({
      code: 'MODEL_ABORTED',
    });
  });
});
