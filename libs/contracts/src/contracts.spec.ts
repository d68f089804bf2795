import { z } from 'zod';
import { eventRegistry } from './registry';
import { eventSamples, sampleIds } from './samples/event-samples';
import { validateNewEvent } from './codec';
import { InvalidEventError, UnknownEventTypeError, WrongStreamCategoryError } from './errors';

const streamFor = (category: string) =>
  category === 'main'
    ? 'main-ws1.u1'
    : category === 'receipt'
      ? `receipt-ws1.u1.${sampleIds.messageId}`
      : category === 'task'
        ? `task-${sampleIds.taskId}`
        : `turn-${sampleIds.turnId}`;
const metadata = {
  correlationId: 'corr-1',
  causationId: null,
  workspaceId: 'ws1',
  actor: { kind: 'user', userId: 'u1' },
} as const;

describe('event contracts', () => {
  const definitions = eventRegistry.all();

  it('has a valid and an invalid sample for every registered event type, and no sample for an unknown type', () => {
    expect(Object.keys(eventSamples).sort()).toEqual(definitions.map((d) => d.type).sort());
  });

  describe.each(definitions.map((d) => [d.type, d] as const))('%s', (type, definition) => {
    it('accepts its valid sample', () => {
      expect(definition.schema.safeParse(eventSamples[type as keyof typeof eventSamples].valid).error).toBeUndefined();
    });
    it('refuses each invalid sample', () => {
      for (const invalid of eventSamples[type as keyof typeof eventSamples].invalid) {
        expect(definition.schema.safeParse(invalid).success).toBe(false);
      }
    });
    it('refuses unknown fields (schemas are strict, never passthrough)', () => {
      const withExtra = { ...eventSamples[type as keyof typeof eventSamples].valid, unexpectedField: 1 };
      expect(definition.schema.safeParse(withExtra).success).toBe(false);
    });
    it('converts to JSON Schema without "any" holes', () => {
      const json = JSON.stringify(z.toJSONSchema(definition.schema, { unrepresentable: 'throw', io: 'input' }));
      expect(json).toContain('"additionalProperties":false');
    });
  });

  it('validates a whole new event: type, stream category, event id, metadata and data', () => {
    const event = { eventId: sampleIds.messageId, type: 'TurnStarted', data: eventSamples.TurnStarted.valid, metadata };
    expect(validateNewEvent(streamFor('turn'), event)).toEqual({ version: 1 });
    expect(() => validateNewEvent(streamFor('task'), event)).toThrow(WrongStreamCategoryError);
    expect(() => validateNewEvent(streamFor('turn'), { ...event, type: 'TurnExploded' })).toThrow(
      UnknownEventTypeError,
    );
    expect(() => validateNewEvent(streamFor('turn'), { ...event, data: eventSamples.TurnStarted.invalid[0] })).toThrow(
      InvalidEventError,
    );
    expect(() =>
      validateNewEvent(streamFor('turn'), { ...event, metadata: { ...metadata, workspaceId: 'Not A Slug' } }),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_EVENT', message: expect.stringContaining('metadata.workspaceId') }),
    );
  });

  it('maps every type to exactly one stream category and a current version', () => {
    for (const d of definitions) {
      expect(['main', 'task', 'turn', 'receipt', 'artifact', 'generation', 'account', 'memory', 'operator']).toContain(
        d.category,
      );
      expect(d.version).toBeGreaterThanOrEqual(1);
      for (let v = 1; v < d.version; v += 1) expect(typeof d.upcasters[v]).toBe('function');
    }
  });
});
