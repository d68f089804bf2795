import { ModelTimeoutError, type CompletionRequest, type ModelProvider } from '@lomo/llm';
import type { EvidenceState } from '@lomo/domain';
import { ModelMemoryExtractor } from './model-extractor';

const evidence: EvidenceState = {
  evidenceId: '00000000-0000-4000-8000-000000000001',
  source: { kind: 'message', messageId: '00000000-0000-4000-8000-000000000002', language: 'en' },
  at: '2025-03-01T10:00:00.000Z',
  fingerprint: 'f'.repeat(64),
  ordinal: 1,
  revoked: false,
  extracted: false,
  copiedTo: [],
};
const request = { evidence, text: "Our brand's main colour is blue.", standing: [], recentObservations: [] };

function provider(answers: (string | Error)[]): ModelProvider & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    name: 'fake',
    requests,
    async complete(r) {
      requests.push(r);
      const next = answers.shift()!;
      if (next instanceof Error) throw next;
      return {
        text: next,
        toolCalls: [],
        usage: { inputTokens: 1, outputTokens: 1 },
        finishReason: 'stop',
        model: 'fake',
      };
    },
  };
}

describe('ModelMemoryExtractor', () => {
  it('asks with the strict structured output and returns the candidates unchecked', async () => {
    const model = provider([
      JSON.stringify({ candidates: [{ subject: 'Bad Key' }, { subject: 'brand.colour.main' }] }),
    ]);
    const raw = await new ModelMemoryExtractor(model).extract(request);
    expect(raw).toHaveLength(2);
    expect(model.requests[0]!.responseFormat?.name).toBe('extract_memories');
  });

  it('asks again once when the answer is not the envelope, then fails typed', async () => {
    const model = provider(['nope', '{"items": []}']);
    await expect(new ModelMemoryExtractor(model).extract(request)).rejects.toMatchObject({
      code: 'MODEL_INVALID_OUTPUT',
      retriable: false,
    });
    expect(model.requests).toHaveLength(2);
  });

  it('lets a retriable model error through for the worker to retry', async () => {
    const model = provider([new ModelTimeoutError('slow', 1000)]);
    await expect(new ModelMemoryExtractor(model).extract(request)).rejects.toMatchObject({
      code: 'MODEL_TIMEOUT',
      retriable: true,
    });
  });
});
