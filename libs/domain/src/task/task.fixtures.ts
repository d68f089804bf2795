import type { Actor } from '@lomo/contracts';
import type { TaskEvent } from './task-events';

/** Ids and event builders for task decider tests (never imported by production code). */
export const ids = {
  task: '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60',
  origin: '7d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e',
  turn1: '5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  turn2: '6a2d3e4f-5c6b-4d7e-8f90-ab1c2d3e4f50',
  item1: '11111111-1111-4111-8111-111111111111',
  item2: '22222222-2222-4222-8222-222222222222',
  item3: '33333333-3333-4333-8333-333333333333',
  checkpoint: '9f4c1e3a-5b6d-4c7e-8f9a-3b4c5d6e7f80',
  checkpoint2: '9f4c1e3a-5b6d-4c7e-8f9a-3b4c5d6e7f81',
  otherTask: '4c3b2a19-0f8e-4d7c-9b6a-5e4d3c2b1a09',
  thirdTask: '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968',
} as const;

export const callOf = (turnId: string, step: number, index: number) => `${turnId}:${step}:${index}`;

export const person: Actor = { kind: 'user', userId: 'u1' };
export const system: Actor = { kind: 'system', component: 'runtime' };

export const taskCreated = (language = 'en'): TaskEvent => ({
  type: 'TaskCreated',
  data: { taskId: ids.task, kind: 'persistent', goal: 'Design a poster', language, originMessageId: ids.origin },
});

export const delivered = (itemId: string, text = `message ${itemId.slice(0, 1)}`): TaskEvent => ({
  type: 'MessageDeliveredToInbox',
  data: { itemId, messageId: itemId, text, language: 'en' },
});

export const turnOpened = (turnId: string = ids.turn1): TaskEvent => ({
  type: 'TurnOpened',
  data: { turnId, reason: 'message' },
});

export const turnClosed = (
  turnId: string = ids.turn1,
  outcome: 'completed' | 'failed' | 'cancelled' = 'completed',
): TaskEvent => ({ type: 'TurnClosed', data: { turnId, outcome } });

export const claimed = (turnId: string, step: number, itemIds: string[]): TaskEvent => ({
  type: 'InboxItemsClaimed',
  data: { turnId, step, itemIds },
});

export const released = (
  turnId: string,
  step: number,
  itemIds: string[],
  reason: 'turn_cancelled' | 'turn_failed' | 'step_abandoned' = 'turn_cancelled',
): TaskEvent => ({ type: 'InboxItemsReleased', data: { turnId, step, itemIds, reason } });

export const approvalOpened = (callId: string, checkpointId: string = ids.checkpoint): TaskEvent => ({
  type: 'CheckpointOpened',
  data: { checkpointId, turnId: ids.turn1, kind: 'approval', callId, question: 'Delete the note?' },
});

export const stopped = (cancelledTurnId?: string): TaskEvent => ({
  type: 'TaskStopped',
  data: { by: person, ...(cancelledTurnId ? { cancelledTurnId } : {}) },
});

/** A task with an active turn and two delivered messages: the usual starting point. */
export const activeWithInbox = (): TaskEvent[] => [
  taskCreated(),
  delivered(ids.item1),
  delivered(ids.item2),
  turnOpened(),
];
