import type { EventEnvelope } from '@lomo/contracts';
import { compactEvent } from './compact-event';

const envelope = (type: string, data: unknown): EventEnvelope => ({
  type,
  data,
  metadata: {
    eventId: '00000000-0000-4000-8000-000000000001',
    streamId: 'turn-22222222-2222-4222-8222-222222222222',
    revision: 4,
    globalPosition: '9',
    occurredAt: '2026-11-30T00:00:01.000Z',
    correlationId: 'c',
    causationId: null,
    workspaceId: 'ws1',
    actor: { kind: 'agent' },
    schemaVersion: 1,
  },
});

describe('compactEvent', () => {
  it('keeps scalars, cuts long text and names nested values by what they are known by', () => {
    const compact = compactEvent(
      envelope('ModelStepCommitted', {
        step: 3,
        reply: 'r'.repeat(500),
        toolCallIntents: [
          { callId: 'a', tool: 'notes.create', arguments: { title: 't' } },
          { callId: 'b', tool: 'task.history', arguments: {} },
        ],
        usage: { inputTokens: 10, outputTokens: 2 },
        promptRef: { hash: 'h', bytes: 1, contentType: 'application/json' },
      }),
    );
    expect(compact).toEqual({
      rev: 4,
      type: 'ModelStepCommitted',
      at: '2026-11-30T00:00:01.000Z',
      step: 3,
      reply: `${'r'.repeat(160)}…`,
      toolCallIntents: ['notes.create', 'task.history'],
    });
  });

  it('summarises long or unnamed lists by their length', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `id${i}`);
    const compact = compactEvent(envelope('InboxItemsClaimed', { itemIds: ids, pairs: [[1], [2]] }));
    expect(compact.itemIds).toEqual(['id0', 'id1', 'id2', 'id3', 'id4', '+3 more']);
    expect(compact.pairs).toBe('2 item(s)');
  });

  it('names an error by its code', () => {
    const compact = compactEvent(
      envelope('ToolCallCompleted', { callId: 'c', status: 'error', error: { code: 'NOTE_NOT_FOUND', message: 'm' } }),
    );
    expect(compact).toMatchObject({ status: 'error', error: 'NOTE_NOT_FOUND' });
  });
});
