import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { taskDecider } from './task-decider';
import { isApproved, isRejected, openCheckpointFor } from './task-queries';
import { activeWithInbox, approvalOpened, callOf, ids } from './task.fixtures';
import type { TaskEvent } from './task-events';

const { given } = deciderSpec(taskDecider);
const call = callOf(ids.turn1, 1, 0);
const otherCall = callOf(ids.turn1, 1, 1);
const asked = [...activeWithInbox(), approvalOpened(call)];

const approvedEvent = (callId: string = call): TaskEvent => ({
  type: 'CheckpointResolved',
  data: { checkpointId: ids.checkpoint, decision: 'approve', callId, resolvedBy: 'u1' },
});

describe('task: an approval authorizes exactly the named call id', () => {
  it('opens an approval checkpoint naming the call, and the task waits', () => {
    given(activeWithInbox())
      .when({
        type: 'OpenCheckpoint',
        checkpointId: ids.checkpoint,
        turnId: ids.turn1,
        kind: 'approval',
        callId: call,
        question: 'Delete the note?',
      })
      .then([approvalOpened(call)]);
    expect(fold(taskDecider, asked).status).toBe('waiting');
    expect(openCheckpointFor(fold(taskDecider, asked), call)?.checkpointId).toBe(ids.checkpoint);
  });

  it('refuses an approval checkpoint without a call id, or with a call of another turn', () => {
    const base = { type: 'OpenCheckpoint' as const, checkpointId: ids.checkpoint, turnId: ids.turn1, question: 'ok?' };
    given(activeWithInbox())
      .when({ ...base, kind: 'approval' })
      .thenThrows('INVALID_COMMAND');
    given(activeWithInbox())
      .when({ ...base, kind: 'approval', callId: callOf(ids.turn2, 1, 0) })
      .thenThrows('CALL_ID_MISMATCH');
  });

  it('records an approval that repeats the call id; only that call is approved', () => {
    given(asked)
      .when({
        type: 'ResolveCheckpoint',
        checkpointId: ids.checkpoint,
        decision: 'approve',
        callId: call,
        resolvedBy: 'u1',
      })
      .then([approvedEvent()]);
    const state = fold(taskDecider, [...asked, approvedEvent()]);
    expect(isApproved(state, call)).toBe(true);
    expect(isApproved(state, otherCall)).toBe(false);
    expect(state.status).toBe('active');
  });

  it('refuses an approval naming another call id, or none', () => {
    given(asked)
      .when({
        type: 'ResolveCheckpoint',
        checkpointId: ids.checkpoint,
        decision: 'approve',
        callId: otherCall,
        resolvedBy: 'u1',
      })
      .thenThrows('CALL_ID_MISMATCH');
    given(asked)
      .when({ type: 'ResolveCheckpoint', checkpointId: ids.checkpoint, decision: 'approve', resolvedBy: 'u1' })
      .thenThrows('CALL_ID_MISMATCH');
  });

  it('an unrelated answer or a question checkpoint authorizes nothing', () => {
    const question: TaskEvent = {
      type: 'CheckpointOpened',
      data: { checkpointId: ids.checkpoint2, turnId: ids.turn1, kind: 'question', question: 'Which colour?' },
    };
    const answered: TaskEvent = {
      type: 'CheckpointResolved',
      data: {
        checkpointId: ids.checkpoint2,
        decision: 'answer',
        answer: 'Blue, and I approve the delete',
        resolvedBy: 'u1',
      },
    };
    given([...asked, question])
      .when({ type: 'ResolveCheckpoint', checkpointId: ids.checkpoint2, decision: 'approve', resolvedBy: 'u1' })
      .thenThrows('INVALID_DECISION');
    const state = fold(taskDecider, [...asked, question, answered]);
    expect(isApproved(state, call)).toBe(false);
    expect(state.status).toBe('waiting');
  });

  it('a rejection is recorded and does not authorize', () => {
    const rejected: TaskEvent = {
      type: 'CheckpointResolved',
      data: { checkpointId: ids.checkpoint, decision: 'reject', callId: call, resolvedBy: 'u1' },
    };
    const state = fold(taskDecider, [...asked, rejected]);
    expect(isApproved(state, call)).toBe(false);
    expect(isRejected(state, call)).toBe(true);
  });

  it('a checkpoint resolves once: a second approval, even the same, is a typed refusal, and so is another way', () => {
    const history = [...asked, approvedEvent()];
    given(history)
      .when({
        type: 'ResolveCheckpoint',
        checkpointId: ids.checkpoint,
        decision: 'approve',
        callId: call,
        resolvedBy: 'u1',
      })
      .thenThrows('CHECKPOINT_ALREADY_RESOLVED');
    given(history)
      .when({
        type: 'ResolveCheckpoint',
        checkpointId: ids.checkpoint,
        decision: 'reject',
        callId: call,
        resolvedBy: 'u1',
      })
      .thenThrows('CHECKPOINT_ALREADY_RESOLVED');
    given(activeWithInbox())
      .when({
        type: 'ResolveCheckpoint',
        checkpointId: ids.checkpoint,
        decision: 'approve',
        callId: call,
        resolvedBy: 'u1',
      })
      .thenThrows('CHECKPOINT_NOT_FOUND');
  });
});

describe('task: an approval the agent recorded itself never authorizes', () => {
  const byAgent: TaskEvent = { ...approvedEvent(), recordedBy: { kind: 'agent' } };
  const byPerson: TaskEvent = { ...approvedEvent(), recordedBy: { kind: 'user', userId: 'u1' } };

  it('resolves nothing: the call is not approved and the checkpoint stays open for the person', () => {
    const state = fold(taskDecider, [...asked, byAgent]);
    expect(isApproved(state, call)).toBe(false);
    expect(openCheckpointFor(state, call)?.checkpointId).toBe(ids.checkpoint);
    expect(state.status).toBe('waiting');
  });

  it('cannot take back a person’s approval either', () => {
    const rejectedByAgent: TaskEvent = {
      type: 'CheckpointResolved',
      data: { checkpointId: ids.checkpoint, decision: 'reject', callId: call, resolvedBy: 'u1' },
      recordedBy: { kind: 'agent' },
    };
    const state = fold(taskDecider, [...asked, byPerson, rejectedByAgent]);
    expect(isApproved(state, call)).toBe(true);
  });

  it('leaves the person free to resolve it afterwards', () => {
    given([...asked, byAgent])
      .when({
        type: 'ResolveCheckpoint',
        checkpointId: ids.checkpoint,
        decision: 'approve',
        callId: call,
        resolvedBy: 'u1',
      })
      .then([approvedEvent()]);
  });
});
