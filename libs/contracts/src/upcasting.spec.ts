import { upcast, type StoredEvent } from './codec';
import { eventRegistry } from './registry';
import { sampleIds } from './samples/event-samples';
import { deterministicUuid } from './ids';

const stored = (type: string, schemaVersion: number, data: Record<string, unknown>): StoredEvent => ({
  type,
  schemaVersion,
  data,
  metadata: {
    eventId: sampleIds.messageId,
    streamId: 'turn-x',
    revision: 0,
    globalPosition: '1',
    occurredAt: '2026-11-30T00:00:00.000Z',
    correlationId: 'c',
    causationId: null,
    workspaceId: 'ws1',
    actor: { kind: 'agent' },
  },
});

const assertCurrent = (type: string, data: unknown) =>
  expect(eventRegistry.get(type)!.schema.safeParse(data).error).toBeUndefined();

describe('upcasting on read, one test per kind of change', () => {
  it('added field: a v1 UserMessageReceived gets channel "ui"', () => {
    const v1 = { messageId: sampleIds.messageId, userId: 'u1', text: 'hi', language: 'en' };
    const read = upcast(stored('UserMessageReceived', 1, v1));
    expect(read.data).toEqual({ ...v1, channel: 'ui' });
    expect(read.metadata.schemaVersion).toBe(2);
    assertCurrent('UserMessageReceived', read.data);
  });

  it('renamed field: a v1 TaskCreated "origin" becomes "originMessageId"', () => {
    const v1 = { taskId: sampleIds.taskId, kind: 'persistent', goal: 'g', language: 'en', origin: sampleIds.messageId };
    const read = upcast(stored('TaskCreated', 1, v1));
    expect(read.data).toEqual({
      taskId: sampleIds.taskId,
      kind: 'persistent',
      goal: 'g',
      language: 'en',
      originMessageId: sampleIds.messageId,
    });
    assertCurrent('TaskCreated', read.data);
  });

  it('restructured value: v1 ModelStepCommitted usage {promptTokens, completionTokens} becomes {inputTokens, outputTokens}', () => {
    const v1 = {
      step: 1,
      reply: 'ok',
      toolCallIntents: [],
      consumedItemIds: [],
      usage: { promptTokens: 10, completionTokens: 3 },
      promptRef: { hash: 'b'.repeat(64), bytes: 3, contentType: 'application/json' },
      finishReason: 'stop',
    };
    const read = upcast(stored('ModelStepCommitted', 1, v1));
    expect(read.data).toMatchObject({ usage: { inputTokens: 10, outputTokens: 3 } });
    assertCurrent('ModelStepCommitted', read.data);
  });

  it('renamed event type: a stored TurnLeaseExtended reads as TurnLeaseRenewed with leaseUntil', () => {
    const v1 = { workerId: 'w1', generation: 1, expiresAt: '2026-11-30T00:00:30.000Z' };
    const read = upcast(stored('TurnLeaseExtended', 1, v1));
    expect(read.type).toBe('TurnLeaseRenewed');
    expect(read.data).toEqual({ workerId: 'w1', generation: 1, leaseUntil: '2026-11-30T00:00:30.000Z' });
    assertCurrent('TurnLeaseRenewed', read.data);
  });

  it('derived fields and reshaped list: a v1 ClarificationRequested gets a card id from its message, a reason, a language, and option ids with actions', () => {
    const v1 = {
      messageId: sampleIds.messageId,
      question: 'Which one?',
      options: [{ label: 'The poster', taskId: sampleIds.taskId }, { label: 'Something new' }],
    };
    const read = upcast(stored('ClarificationRequested', 1, v1));
    expect(read.metadata.schemaVersion).toBe(2);
    expect(read.data).toEqual({
      messageId: sampleIds.messageId,
      cardId: deterministicUuid('lomo.card', sampleIds.messageId),
      question: 'Which one?',
      reason: 'ambiguous',
      language: 'en',
      options: [
        { optionId: 'o1', label: 'The poster', action: 'route', taskId: sampleIds.taskId },
        { optionId: 'o2', label: 'Something new', action: 'new' },
      ],
    });
    assertCurrent('ClarificationRequested', read.data);
  });

  it('no change: a current event passes through untouched (same object)', () => {
    const data = { turnId: sampleIds.turnId, taskId: sampleIds.taskId, reason: 'message' };
    const read = upcast(stored('TurnStarted', 1, data));
    expect(read.data).toBe(data);
  });

  it('a former type name is accepted on read only, never on append', () => {
    expect(eventRegistry.resolve('TurnLeaseExtended')?.type).toBe('TurnLeaseRenewed');
    expect(eventRegistry.get('TurnLeaseExtended')).toBeUndefined();
  });

  it('widened span: a v1 ArtifactChangeNoticed {artifactId, version, by: user} becomes a v2 notice from version-1 to version by that person, with a stable notice id', () => {
    const v1 = { artifactId: sampleIds.messageId, version: 4, by: { kind: 'user', userId: 'u1' } };
    const read = upcast(stored('ArtifactChangeNoticed', 1, v1));
    expect(read.metadata.schemaVersion).toBe(2);
    expect(read.data).toEqual({
      noticeId: deterministicUuid('lomo.artifact-notice.v1', `${sampleIds.messageId}:4`),
      artifactId: sampleIds.messageId,
      fromVersion: 3,
      toVersion: 4,
      by: { kind: 'person', userId: 'u1' },
      nodes: [],
      summary: '',
    });
    assertCurrent('ArtifactChangeNoticed', read.data);
    // Pure: the same v1 reads the same every time (a rebuild sees the same notice id).
    expect(upcast(stored('ArtifactChangeNoticed', 1, v1)).data).toEqual(read.data);
  });
});
