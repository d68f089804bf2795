import { ModelUnavailableError } from '../model-errors';
import type { CompletionRequest } from '../model-provider.port';
import { describeModelProviderContract } from '../testing/model-provider.contract';
import { match } from './request-matchers';
import { ScriptedModelProvider } from './scripted-model-provider';

const noteTool = { name: 'take_note', description: 'Write a note', parameters: { type: 'object' } };
const ask = (text: string, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  messages: [{ role: 'user', content: text }],
  tools: [noteTool],
  ...extra,
});

describe('ScriptedModelProvider', () => {
  it('answers its steps in order and records every request', async () => {
    const model = new ScriptedModelProvider([
      {
        label: 'decide',
        expect: [match.lastUserMessageContains('milk'), match.offersTools('take_note')],
        reply: { toolCalls: [{ name: 'take_note', arguments: { text: 'milk' } }] },
      },
      {
        label: 'answer',
        expect: match.toolResultFor('scripted_0_0', 'n1'),
        reply: { text: 'Noted.', usage: { inputTokens: 7, outputTokens: 2 } },
      },
    ]);

    const first = await model.complete(ask('remember milk', { trace: { turnId: 't1', step: 1 } }));
    expect(first).toMatchObject({
      toolCalls: [{ id: 'scripted_0_0', name: 'take_note', arguments: '{"text":"milk"}' }],
      finishReason: 'tool_calls',
      model: 'scripted',
    });
    const second = await model.complete({
      messages: [
        { role: 'user', content: 'remember milk' },
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'scripted_0_0', content: '{"noteId":"n1"}' },
      ],
      tools: [noteTool],
    });
    expect(second).toEqual({
      text: 'Noted.',
      toolCalls: [],
      usage: { inputTokens: 7, outputTokens: 2 },
      finishReason: 'stop',
      model: 'scripted',
    });
    expect(model.callsFor('decide')).toHaveLength(1);
    expect(model.calls.map((c) => [c.stepIndex, c.outcome])).toEqual([
      [0, 'replied'],
      [1, 'replied'],
    ]);
    expect(model.calls[0].request.trace).toEqual({ turnId: 't1', step: 1 });
    expect(() => model.assertAllConsumed()).not.toThrow();
  });

  it('fails loudly, describing the request, when the next step does not match', async () => {
    const model = new ScriptedModelProvider([{ label: 'note', expect: match.lastUserMessageContains('milk') }]);
    const error = await model.complete(ask('export everything', { trace: { step: 3 } })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_UNSCRIPTED', retriable: false });
    expect((error as Error).message).toContain('"export everything"');
    expect((error as Error).message).toContain('step 1 "note" expects last user message contains "milk"');
    expect((error as Error).message).toContain('{"step":3}');
    expect(model.calls[0].outcome).toBe('unscripted');
    // The step was not consumed: the matching request still gets it.
    await expect(model.complete(ask('milk'))).resolves.toMatchObject({ text: '' });
  });

  it('fails loudly when the steps run out, and remembers it even if the caller swallowed the error', async () => {
    const model = new ScriptedModelProvider([{ reply: { text: 'one' } }]);
    await model.complete(ask('a'));
    await expect(model.complete(ask('b'))).rejects.toThrow(/all 1 scripted step\(s\) are used up/);
    expect(() => model.assertAllConsumed()).toThrow(/unscripted model request #2/);
  });

  it('assertAllConsumed names the steps never requested', async () => {
    const model = new ScriptedModelProvider([{ reply: { text: 'one' } }, { label: 'late', reply: { text: 'two' } }]);
    await model.complete(ask('a'));
    expect(() => model.assertAllConsumed()).toThrow(/1 scripted step\(s\) never requested: step 2 "late"/);
    expect(model.remainingSteps).toBe(1);
  });

  it('hangs until aborted, then rejects with MODEL_ABORTED', async () => {
    const model = new ScriptedModelProvider([{ label: 'slow', hangUntilAborted: true }]);
    const controller = new AbortController();
    const pending = model.complete(ask('x', { signal: controller.signal }));
    await Promise.resolve();
    expect(model.calls[0].outcome).toBe('pending');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
    expect(model.callsFor('slow').map((c) => c.outcome)).toEqual(['aborted']);
  });

  it('refuses to hang forever on a request without a signal', async () => {
    const model = new ScriptedModelProvider([{ hangUntilAborted: true }]);
    await expect(model.complete(ask('x'))).rejects.toMatchObject({ code: 'MODEL_UNSCRIPTED' });
  });

  it('waits its delay on the injected clock and can be aborted during it', async () => {
    const waits: number[] = [];
    const model = new ScriptedModelProvider([{ delayMs: 250, reply: { text: 'late' } }, { delayMs: 60_000 }], {
      sleep: async (ms) => void waits.push(ms),
    });
    await expect(model.complete(ask('a'))).resolves.toMatchObject({ text: 'late' });
    expect(waits).toEqual([250]);

    const real = new ScriptedModelProvider([{ delayMs: 60_000 }]);
    const controller = new AbortController();
    const pending = real.complete(ask('b', { signal: controller.signal }));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
  });

  it('replays a scripted failure and derives replies from the request', async () => {
    const model = new ScriptedModelProvider([
      { fail: new ModelUnavailableError('upstream down') },
      { reply: (r) => ({ text: `echo: ${r.messages[r.messages.length - 1].content}` }) },
    ]);
    await expect(model.complete(ask('a'))).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE', retriable: true });
    await expect(model.complete(ask('hello'))).resolves.toMatchObject({ text: 'echo: hello' });
    expect(model.calls.map((c) => c.outcome)).toEqual(['failed', 'replied']);
  });

  it("records a snapshot, so later changes to the caller's arrays do not rewrite history", async () => {
    const model = new ScriptedModelProvider([{}]);
    const messages = [{ role: 'user' as const, content: 'first' }];
    await model.complete({ messages, tools: [] });
    messages[0].content = 'changed';
    expect(model.calls[0].request.messages[0].content).toBe('first');
  });

  it('matches on tool choice, exact tool set, trace and predicates', () => {
    const request = ask('hi', { toolChoice: { name: 'take_note' }, trace: { turnId: 't', step: 2 } });
    expect(match.toolChoice({ name: 'take_note' }).test(request)).toBe(true);
    expect(match.toolChoice('auto').test(ask('hi'))).toBe(true);
    expect(match.offersExactlyTools('take_note').test(request)).toBe(true);
    expect(match.offersExactlyTools('take_note', 'other').test(request)).toBe(false);
    expect(match.trace({ step: 2 }).test(request)).toBe(true);
    expect(match.trace({ step: 3 }).test(request)).toBe(false);
    expect(match.where('two messages', (r) => r.messages.length === 2).test(request)).toBe(false);
    expect(match.lastMessageContains('hi').test(request)).toBe(true);
  });
});

describe('ScriptedModelProvider: structured answers and timeouts', () => {
  const format = { name: 'route_message', schema: { type: 'object' } };

  it('serialises a json reply as the answer text and matches on the response format', async () => {
    const answer = { outcome: 'main', reply: 'hi there' };
    const model = new ScriptedModelProvider([
      { expect: match.responseFormat('route_message'), reply: { json: answer } },
    ]);
    const result = await model.complete(ask('hey', { tools: [], responseFormat: format }));
    expect(JSON.parse(result.text)).toEqual(answer);
    expect(model.calls[0].request.responseFormat).toEqual(format);
  });

  it('replies raw invalid text as it is, so callers can exercise their retries', async () => {
    const model = new ScriptedModelProvider([{ reply: { text: '{"outcome": ' } }]);
    await expect(model.complete(ask('hey'))).resolves.toMatchObject({ text: '{"outcome": ' });
  });

  it('rejects a timeout step with MODEL_TIMEOUT after its delay', async () => {
    const waited: number[] = [];
    const model = new ScriptedModelProvider([{ delayMs: 250, timeout: true }], {
      sleep: async (ms) => void waited.push(ms),
    });
    await expect(model.complete(ask('hey'))).rejects.toMatchObject({
      code: 'MODEL_TIMEOUT',
      retriable: true,
      details: { timeoutMs: 250 },
    });
    expect(waited).toEqual([250]);
    expect(model.calls[0].outcome).toBe('failed');
  });

  it('says whether it was ever called', async () => {
    const model = new ScriptedModelProvider([{ reply: { text: 'ok' } }]);
    expect(model.neverCalled).toBe(true);
    await model.complete(ask('hey'));
    expect(model.neverCalled).toBe(false);
  });
});

describeModelProviderContract('scripted', async () => ({
  provider: new ScriptedModelProvider(Array.from({ length: 3 }, () => ({ reply: { text: 'Hello!' } }))),
}));
