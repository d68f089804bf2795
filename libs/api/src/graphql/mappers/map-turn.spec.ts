import type { TurnStep as TurnStepDocument } from '@lomo/read-models';
import { mapTurnStep } from './map-turn';

describe('mapTurnStep', () => {
  const v1: Omit<TurnStepDocument, 'promptRef' | 'context'> = {
    step: 1,
    reply: 'hi',
    callIds: [],
    consumedItemIds: [],
    usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: null },
    finishReason: 'stop',
    committedAt: '2026-01-01T00:00:00.000Z',
  };

  it('maps a document of turns v1 (served while v2 is rebuilt) with no context and no prompt reference', () => {
    expect(mapTurnStep('r1', 'ws1', v1 as TurnStepDocument)).toMatchObject({
      turnId: 'r1',
      workspaceId: 'ws1',
      context: null,
      promptRef: null,
    });
  });

  it('maps the recorded context, segments under their field name', () => {
    const promptRef = { hash: 'a'.repeat(64), bytes: 10, contentType: 'application/vnd.lomo.prompt+json' };
    const context: NonNullable<TurnStepDocument['context']> = {
      layers: [{ layer: 'prefix', tokens: 10, messages: 1 }],
      prefix: { hash: 'b'.repeat(64), tokens: 10, changed: null, profileVersion: 1 },
      tools: { strategy: 'masked', domains: ['core', '3d'], sent: 30 },
      segments: ['7f0c3a52-0000-4000-8000-000000000001'],
      budgetTokens: 1000,
      promptTokens: 10,
    };
    expect(mapTurnStep('r1', 'ws1', { ...v1, promptRef, context })).toMatchObject({
      promptRef,
      context: {
        layers: [{ layer: 'prefix', tokens: 10, messages: 1 }],
        prefix: { changed: null, profileVersion: 1 },
        tools: { strategy: 'masked', domains: ['core', '3d'], sent: 30 },
        segmentIds: ['7f0c3a52-0000-4000-8000-000000000001'],
        budgetTokens: 1000,
        promptTokens: 10,
      },
    });
  });
});
