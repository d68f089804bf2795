import type { InspectedStep as StepShape } from '@lomo/operator';
import { mapInspectedStep, mapText } from './map-inspection';

const step = (overrides: Partial<StepShape>): StepShape => ({
  turnId: 'turn-1',
  step: 1,
  committedAt: '2026-01-01T00:00:00Z',
  generation: 1,
  consumedItemIds: [],
  consumedInboxItems: [],
  reply: null,
  toolCallIntents: [],
  promptRef: undefined,
  usage: null,
  context: undefined,
  ledger: [],
  excluded: false,
  ...overrides,
});

describe('the inspection as GraphQL serves it', () => {
  it('shows forgotten content as purged with its reason, never a text', () => {
    expect(mapText({ purged: true, reason: 'forgotten' })).toEqual({
      text: null,
      purged: true,
      purgedReason: 'forgotten',
    });
    expect(mapText('a goal')).toEqual({ text: 'a goal', purged: false, purgedReason: null });
    const shown = mapInspectedStep(
      step({
        reply: { purged: true, reason: 'forgotten' },
        prompt: {
          ref: { hash: 'h' },
          canonicalJson: { purged: true, reason: 'blob deleted' },
          layers: { purged: true, reason: 'blob deleted' },
          tools: [],
        },
      }),
    );
    expect(shown.reply).toEqual({ text: null, purged: true, purgedReason: 'forgotten' });
    expect(shown.prompt).toMatchObject({ layers: [], layersPurged: true, layersPurgedReason: 'blob deleted' });
    expect(JSON.stringify(shown)).not.toContain('"text":"');
  });

  it('gives free-form values as JSON text, a message its role and text, and no prompt unless one was loaded', () => {
    const shown = mapInspectedStep(
      step({
        toolCallIntents: [{ callId: 'c1', tool: 'notes.create', arguments: { title: 'milk' } }],
        ledger: [
          {
            callId: 'c1',
            tool: 'notes.create',
            status: 'completed',
            result: { ok: true },
            startedAt: 'a',
            finishedAt: 'b',
          },
        ],
        context: undefined,
        prompt: {
          ref: { hash: 'h' },
          canonicalJson: '{"messages":[]}',
          layers: [
            {
              layer: 'input',
              tokens: 5,
              messages: [
                { role: 'user', content: 'buy milk' },
                { role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [] },
              ],
            },
          ],
          tools: ['notes.create'],
        },
      }),
    );
    expect(shown.toolCallIntents).toEqual([{ callId: 'c1', tool: 'notes.create', argumentsJson: '{"title":"milk"}' }]);
    expect(shown.ledger[0].resultJson).toBe('{"ok":true}');
    expect(shown.contextJson).toBeNull();
    expect(shown.prompt?.refJson).toBe('{"hash":"h"}');
    expect(shown.prompt?.layers[0].messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'buy milk'],
      ['assistant', 'ok'],
    ]);
    expect(JSON.parse(shown.prompt!.layers[0].messages[0].json)).toEqual({ role: 'user', content: 'buy milk' });
    expect(mapInspectedStep(step({})).prompt).toBeNull();
  });
});
