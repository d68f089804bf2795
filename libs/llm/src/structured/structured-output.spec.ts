import { z } from 'zod';
import { RoutingAnswer, ROUTING_ANSWER_SCHEMA_NAME } from '@lomo/contracts';
import { ModelUnavailableError } from '../model-errors';
import type { CompletionRequest } from '../model-provider.port';
import { match } from '../scripted/request-matchers';
import { ScriptedModelProvider } from '../scripted/scripted-model-provider';
import { completeStructured, structuredOutput } from './structured-output';

const Answer = z.strictObject({ verdict: z.enum(['yes', 'no']), note: z.string().nullable() });
const spec = { name: 'yes_or_no', schema: Answer };
const request: CompletionRequest = { messages: [{ role: 'user', content: 'Is water wet?' }], tools: [] };
const usage = { inputTokens: 10, outputTokens: 3 };

describe('structuredOutput', () => {
  it('builds a strict JSON Schema: every property required, no additional properties, no $schema', () => {
    const format = structuredOutput('yes_or_no', Answer);
    expect(format).toEqual({
      name: 'yes_or_no',
      schema: {
        type: 'object',
        properties: { verdict: { type: 'string', enum: ['yes', 'no'] }, note: { type: ['string', 'null'] } },
        required: ['verdict', 'note'],
        additionalProperties: false,
      },
    });
  });

  it('accepts the routing answer schema of the contracts', () => {
    const format = structuredOutput(ROUTING_ANSWER_SCHEMA_NAME, RoutingAnswer);
    expect(format.schema.required).toEqual(['outcome', 'taskRef', 'scores', 'reply', 'goal', 'question']);
  });

  it.each([
    ['an optional property', z.object({ a: z.string().optional() })],
    ['a nested optional property', z.object({ a: z.array(z.object({ b: z.number().optional() })) })],
    ['a record', z.object({ a: z.record(z.string(), z.string()) })],
    ['a non-object root', z.array(z.string())],
  ])('refuses %s when the format is built', (_what, schema) => {
    expect(() => structuredOutput('x', schema)).toThrow(expect.objectContaining({ code: 'MODEL_BAD_REQUEST' }));
  });

  it('refuses a schema with no JSON Schema and a name the vendor would reject', () => {
    expect(() => structuredOutput('x', z.object({ at: z.date() }))).toThrow(
      expect.objectContaining({ code: 'MODEL_BAD_REQUEST' }),
    );
    expect(() => structuredOutput('has space', Answer)).toThrow(expect.objectContaining({ code: 'MODEL_BAD_REQUEST' }));
  });
});

describe('completeStructured', () => {
  it('sends the response format without tools and returns the validated value', async () => {
    const model = new ScriptedModelProvider([
      { expect: match.responseFormat('yes_or_no'), reply: { json: { verdict: 'yes', note: null }, usage } },
    ]);
    const result = await completeStructured(
      model,
      { ...request, tools: [{ name: 'a', description: 'a', parameters: {} }] },
      spec,
    );
    expect(result).toEqual({ value: { verdict: 'yes', note: null }, attempts: 1, usage, model: 'scripted' });
    expect(model.calls[0].request.tools).toEqual([]);
    expect(model.calls[0].request.responseFormat).toEqual(structuredOutput('yes_or_no', Answer));
  });

  it.each([
    ['bad JSON', '{"verdict": "yes"', 'not valid JSON'],
    ['a schema mismatch', '{"verdict": "maybe", "note": null}', 'verdict'],
  ])('asks again once after %s, telling the model what was wrong, and sums the usage', async (_what, bad, said) => {
    const model = new ScriptedModelProvider([
      { reply: { text: bad, usage } },
      { reply: { json: { verdict: 'no', note: 'dry' }, usage: { inputTokens: 20, outputTokens: 4 } } },
    ]);
    const result = await completeStructured(model, request, spec);
    expect(result).toMatchObject({ value: { verdict: 'no', note: 'dry' }, attempts: 2 });
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 7 });
    const retry = model.calls[1].request.messages;
    expect(retry.slice(0, 1)).toEqual(request.messages);
    expect(retry[1]).toEqual({ role: 'assistant', content: bad });
    expect(retry[2]).toMatchObject({ role: 'user' });
    expect(retry[2].content).toContain(said);
  });

  it('throws MODEL_INVALID_OUTPUT, not retriable, after a second invalid answer, with attempts and usage', async () => {
    const model = new ScriptedModelProvider([
      { reply: { text: 'nope', usage } },
      { reply: { json: { verdict: 1 }, usage } },
    ]);
    const error = await completeStructured(model, request, spec).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'MODEL_INVALID_OUTPUT',
      retriable: false,
      attempts: 2,
      details: { attempts: 2, usage: { inputTokens: 20, outputTokens: 6 }, name: 'yes_or_no' },
    });
    expect(model.calls).toHaveLength(2);
  });

  it('with retries 0 gives up on the first invalid answer', async () => {
    const model = new ScriptedModelProvider([{ reply: { text: 'nope' } }]);
    await expect(completeStructured(model, request, spec, { retries: 0 })).rejects.toMatchObject({
      code: 'MODEL_INVALID_OUTPUT',
      attempts: 1,
    });
    expect(model.calls).toHaveLength(1);
  });

  it("passes the adapter's transport errors through unchanged and does not ask again", async () => {
    const down = new ModelUnavailableError('down');
    const model = new ScriptedModelProvider([{ fail: down }, { reply: { json: { verdict: 'yes', note: null } } }]);
    await expect(completeStructured(model, request, spec)).rejects.toBe(down);
    const slow = new ScriptedModelProvider([{ timeout: 5000 }]);
    await expect(completeStructured(slow, request, spec)).rejects.toMatchObject({ code: 'MODEL_TIMEOUT' });
    expect(model.calls).toHaveLength(1);
  });
});
