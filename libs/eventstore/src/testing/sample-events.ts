import { randomUUID } from 'node:crypto';
import { streams, type NewEvent, type WriteMetadata } from '@lomo/contracts';

/** Small builders of valid events from the real registry, for store tests and benches. */

export const sampleMetadata = (overrides: Partial<WriteMetadata> = {}): WriteMetadata => ({
  correlationId: 'corr-test',
  causationId: null,
  workspaceId: 'ws1',
  actor: { kind: 'system', component: 'store-test' },
  ...overrides,
});

export const newTurnStreamId = () => streams.turn(randomUUID());
export const newTaskStreamId = () => streams.task(randomUUID());
export const mainStreamId = (workspaceId = 'ws1', userId = 'u1') => streams.main(workspaceId, userId);

const idOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

export function turnStarted(streamId: string, eventId: string = randomUUID()): NewEvent {
  return {
    eventId,
    type: 'TurnStarted',
    data: { turnId: idOf(streamId), taskId: randomUUID(), reason: 'message' },
    metadata: sampleMetadata(),
  };
}

export function turnLeased(generation: number, eventId: string = randomUUID()): NewEvent {
  return {
    eventId,
    type: 'TurnLeased',
    data: { workerId: 'worker-1', generation, leaseUntil: '2030-01-01T00:00:00.000Z' },
    metadata: sampleMetadata({ generation }),
  };
}

export function taskCreated(streamId: string, eventId: string = randomUUID()): NewEvent {
  return {
    eventId,
    type: 'TaskCreated',
    data: {
      taskId: idOf(streamId),
      kind: 'persistent',
      goal: 'Draw a red fox',
      language: 'en',
      originMessageId: randomUUID(),
    },
    metadata: sampleMetadata(),
  };
}

export function checklistItemChanged(index: number, eventId: string = randomUUID()): NewEvent {
  return {
    eventId,
    type: 'ChecklistItemChanged',
    data: { itemId: `item-${index}`, status: 'in_progress' },
    metadata: sampleMetadata(),
  };
}

export function userMessageReceived(text = 'hello', eventId: string = randomUUID(), userId = 'u1'): NewEvent {
  return {
    eventId,
    type: 'UserMessageReceived',
    data: { messageId: randomUUID(), userId, text, language: 'en', channel: 'ui' },
    metadata: sampleMetadata({ actor: { kind: 'user', userId } }),
  };
}

/** `count` valid events for a stream of any of the three sample categories. */
export function sampleEventsFor(streamId: string, count: number, startIndex = 0): NewEvent[] {
  const category = streamId.slice(0, streamId.indexOf('-'));
  return Array.from({ length: count }, (_, i) => {
    const n = startIndex + i;
    if (category === 'turn') return n === 0 ? turnStarted(streamId) : turnLeased(n);
    if (category === 'task') return n === 0 ? taskCreated(streamId) : checklistItemChanged(n);
    if (category === 'main') return userMessageReceived(`message ${n}`);
    throw new Error(`No sample events for stream ${streamId}`);
  });
}
