import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@lomo/contracts';
import { sampleMetadata, taskCreated, turnStarted } from '../testing/sample-events';
import { appendIdOf, decodeEvent, encodeEvent, type RecordedLike } from './event-codec';
import { compileMatcher } from './event-matcher';

const position = { commit: (1n << 60n) + 3n, prepare: (1n << 60n) + 3n };

function recordedFrom(event: NewEvent, schemaVersion: number, appendId: string, revision = 4n): RecordedLike {
  const data = encodeEvent(event, schemaVersion, appendId);
  // Through JSON, as the server stores and returns it.
  return {
    id: data.id,
    revision,
    type: data.type,
    data: JSON.parse(JSON.stringify(data.data)),
    metadata: JSON.parse(JSON.stringify(data.metadata)),
    isJson: true,
    created: new Date('2030-01-02T03:04:05.678Z'),
    position,
  };
}

describe('event codec', () => {
  it('stores the write metadata as is, the server correlation keys and a lomo section', () => {
    const event = { ...turnStarted('turn-1'), metadata: sampleMetadata({ causationId: 'cause-1' }) };
    const data = encodeEvent(event, 1, 'append-1');
    expect(data).toEqual({
      id: event.eventId,
      contentType: 'application/json',
      type: 'TurnStarted',
      data: event.data,
      metadata: {
        ...event.metadata,
        $correlationId: 'corr-test',
        $causationId: 'cause-1',
        lomo: { schemaVersion: 1, appendId: 'append-1' },
      },
    });
    expect(encodeEvent(turnStarted('turn-1'), 1, 'a').metadata).not.toHaveProperty('$causationId');
  });

  it('decodes to the envelope the port promises: write metadata plus store fields, nothing else', () => {
    const streamId = `task-${randomUUID()}`;
    const event = taskCreated(streamId);
    const envelope = decodeEvent(streamId, recordedFrom(event, 2, 'append-1'));
    expect(envelope).toEqual({
      type: 'TaskCreated',
      data: event.data,
      metadata: {
        ...event.metadata,
        eventId: event.eventId,
        streamId,
        revision: 4,
        globalPosition: '1152921504606846979:1152921504606846979',
        occurredAt: '2030-01-02T03:04:05.678Z',
        schemaVersion: 2,
      },
    });
    expect(appendIdOf(recordedFrom(event, 2, 'append-9'))).toBe('append-9');
  });

  it('upcasts an event stored at an older schema version', () => {
    const streamId = `task-${randomUUID()}`;
    const { originMessageId, ...v2 } = taskCreated(streamId).data as Record<string, unknown>;
    const old = { ...taskCreated(streamId), data: { ...v2, origin: originMessageId } };
    const envelope = decodeEvent(streamId, recordedFrom(old, 1, 'a'));
    expect(envelope.data).toEqual({ ...v2, originMessageId });
    expect(envelope.metadata.schemaVersion).toBe(2);
  });

  it('refuses, with STORE_FAILED, events this adapter did not write and events without a position', () => {
    const streamId = 'turn-1';
    const foreign = { ...recordedFrom(turnStarted(streamId), 1, 'a'), metadata: { correlationId: 'x' } };
    expect(() => decodeEvent(streamId, foreign)).toThrow(expect.objectContaining({ code: 'STORE_FAILED' }));
    expect(appendIdOf(foreign)).toBeUndefined();
    const binary = { ...recordedFrom(turnStarted(streamId), 1, 'a'), isJson: false };
    expect(() => decodeEvent(streamId, binary)).toThrow(expect.objectContaining({ code: 'STORE_FAILED' }));
    const noPosition = { ...recordedFrom(turnStarted(streamId), 1, 'a'), position: undefined };
    expect(() => decodeEvent(streamId, noPosition)).toThrow(/22\.6 or later/);
  });
});

describe('client-side event matcher', () => {
  it('ORs prefixes, ORs types, ANDs the two, and matches former type names', () => {
    const match = compileMatcher({ streamPrefixes: ['turn-', 'main-ws2.'], eventTypes: ['TurnLeaseRenewed'] });
    expect(match('turn-1', 'TurnLeaseRenewed')).toBe(true);
    expect(match('turn-1', 'TurnLeaseExtended')).toBe(true);
    expect(match('main-ws2.u1', 'TurnLeaseRenewed')).toBe(true);
    expect(match('task-1', 'TurnLeaseRenewed')).toBe(false);
    expect(match('turn-1', 'TurnStarted')).toBe(false);
  });

  it('treats empty lists and an empty prefix as no constraint, and refuses oversized filters', () => {
    expect(compileMatcher({ streamPrefixes: [], eventTypes: [] })('task-1', 'TaskCreated')).toBe(true);
    expect(compileMatcher({ streamPrefixes: ['turn-', ''] })('task-1', 'TaskCreated')).toBe(true);
    expect(() => compileMatcher({ streamPrefixes: Array.from({ length: 101 }, (_, i) => `p${i}-`) })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});
