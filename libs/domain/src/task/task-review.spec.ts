import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { taskDecider } from './task-decider';
import { itemReview, itemSettled } from './task-queries';
import { activeWithInbox, ids, turnClosed } from './task.fixtures';
import type { TaskEvent } from './task-events';
import type { ExistingTask } from './task-state';

const { given } = deciderSpec(taskDecider);

const planned: TaskEvent = {
  type: 'ChecklistPlanned',
  data: {
    items: [
      { itemId: 'script', title: 'Script', dependsOn: [] },
      { itemId: 'storyboard', title: 'Storyboard', dependsOn: ['script'], needsConfirmation: true },
      { itemId: 'shots', title: 'Shots', dependsOn: ['storyboard'] },
    ],
  },
};
const storyboardDone: TaskEvent = {
  type: 'ChecklistItemChanged',
  data: {
    itemId: 'storyboard',
    status: 'done',
    evidence: { kind: 'artifact_version', artifactId: ids.otherTask, version: 2 },
  },
};
const reviewOpened = (options?: { optionId: string; label: string }[]): TaskEvent => ({
  type: 'CheckpointOpened',
  data: {
    checkpointId: ids.checkpoint,
    turnId: ids.turn1,
    kind: 'review',
    itemId: 'storyboard',
    question: 'Review the storyboard',
    ...(options !== undefined ? { options } : {}),
  },
});
const decided: TaskEvent = {
  type: 'ContinuationDecided',
  data: {
    turnId: ids.turn1,
    decision: 'await_person',
    reason: 'review_needed',
    progress: ['artifact_version'],
    autoTurns: 0,
    turnsWithoutProgress: 0,
    itemsDone: 1,
  },
};
/** The runtime opened the card as it closed the turn that finished the storyboard. */
const atReview = (options?: { optionId: string; label: string }[]) => [
  ...activeWithInbox(),
  planned,
  storyboardDone,
  reviewOpened(options),
  turnClosed(),
  decided,
];
const resolve = (decision: 'approve' | 'reject' | 'adjust' | 'choose' | 'answer', extra = {}) => ({
  type: 'ResolveCheckpoint' as const,
  checkpointId: ids.checkpoint,
  decision,
  resolvedBy: 'u1',
  ...extra,
});
const task = (events: TaskEvent[]) => fold(taskDecider, events) as ExistingTask;
const item = (events: TaskEvent[], id: string) => {
  const t = task(events);
  return t.checklist.find((i) => i.itemId === id)!;
};

describe('task: a review card about a checklist item', () => {
  it('a planned item keeps its needsConfirmation flag; a stage the person reviews is not settled until approved', () => {
    const events = [...activeWithInbox(), planned, storyboardDone];
    expect(item(events, 'storyboard').needsConfirmation).toBe(true);
    expect(itemReview(task(events), item(events, 'storyboard')).state).toBe('needed');
    expect(itemSettled(task(events), item(events, 'storyboard'))).toBe(false);
  });

  it('opens a review for an item of the plan, and the task waits; an item not in the plan is refused', () => {
    given([...activeWithInbox(), planned, storyboardDone])
      .when({
        type: 'OpenCheckpoint',
        checkpointId: ids.checkpoint,
        turnId: ids.turn1,
        kind: 'review',
        itemId: 'storyboard',
        question: 'Review the storyboard',
      })
      .then([reviewOpened()]);
    given([...activeWithInbox(), planned])
      .when({
        type: 'OpenCheckpoint',
        checkpointId: ids.checkpoint,
        turnId: ids.turn1,
        kind: 'review',
        itemId: 'music',
        question: 'Review the music',
      })
      .thenThrows('CHECKLIST_ITEM_NOT_FOUND');
    expect(task(atReview()).status).toBe('waiting');
  });

  it('approving resumes once: the task owes the person a turn, the item is settled, and a second approval is a typed refusal', () => {
    given(atReview())
      .when(resolve('approve'))
      .then([
        { type: 'CheckpointResolved', data: { checkpointId: ids.checkpoint, decision: 'approve', resolvedBy: 'u1' } },
      ]);
    const after = [
      ...atReview(),
      {
        type: 'CheckpointResolved',
        data: { checkpointId: ids.checkpoint, decision: 'approve', resolvedBy: 'u1' },
      } as TaskEvent,
    ];
    const t = task(after);
    expect(t.status).toBe('active');
    expect(t.continuation).toMatchObject({ pending: true, pendingBy: 'person' });
    expect(itemSettled(t, item(after, 'storyboard'))).toBe(true);
    given(after).when(resolve('approve')).thenThrows('CHECKPOINT_ALREADY_RESOLVED');
    // The turn it owed opens once; after that nothing is owed.
    const opened = [...after, { type: 'TurnOpened', data: { turnId: ids.turn2, reason: 'approval' } } as TaskEvent];
    expect(task(opened).continuation?.pending).toBe(false);
  });

  it('approving a review of an item not yet done marks it done with the review as evidence', () => {
    const events = [...activeWithInbox(), planned, reviewOpened(), turnClosed(), decided];
    given(events)
      .when(resolve('approve'))
      .then([
        { type: 'CheckpointResolved', data: { checkpointId: ids.checkpoint, decision: 'approve', resolvedBy: 'u1' } },
        {
          type: 'ChecklistItemChanged',
          data: { itemId: 'storyboard', status: 'done', evidence: { kind: 'review', checkpointId: ids.checkpoint } },
        },
      ]);
  });

  it('adjusting with a note puts the item back in progress with the note, and owes a turn', () => {
    given(atReview())
      .when(resolve('adjust', { answer: 'warmer colours' }))
      .then([
        {
          type: 'CheckpointResolved',
          data: { checkpointId: ids.checkpoint, decision: 'adjust', answer: 'warmer colours', resolvedBy: 'u1' },
        },
        { type: 'ChecklistItemChanged', data: { itemId: 'storyboard', status: 'in_progress', note: 'warmer colours' } },
      ]);
    given(atReview()).when(resolve('adjust')).thenThrows('INVALID_COMMAND');
  });

  it('rejecting blocks the item and owes no turn', () => {
    const rejected: TaskEvent = {
      type: 'CheckpointResolved',
      data: { checkpointId: ids.checkpoint, decision: 'reject', resolvedBy: 'u1' },
    };
    given(atReview())
      .when(resolve('reject'))
      .then([rejected, { type: 'ChecklistItemChanged', data: { itemId: 'storyboard', status: 'blocked' } }]);
    expect(task([...atReview(), rejected]).continuation?.pending).toBe(false);
  });

  it('choosing names one of the offered options; another option, or a choice without choose, is refused', () => {
    const options = [
      { optionId: 'calm', label: 'Calm' },
      { optionId: 'bold', label: 'Bold' },
    ];
    given(atReview(options))
      .when(resolve('choose', { choice: 'bold' }))
      .then([
        {
          type: 'CheckpointResolved',
          data: { checkpointId: ids.checkpoint, decision: 'choose', choice: 'bold', resolvedBy: 'u1' },
        },
      ]);
    given(atReview(options))
      .when(resolve('choose', { choice: 'loud' }))
      .thenThrows('INVALID_DECISION');
    given(atReview(options))
      .when(resolve('approve', { choice: 'bold' }))
      .thenThrows('INVALID_COMMAND');
    given(atReview())
      .when(resolve('answer', { answer: 'fine' }))
      .thenThrows('INVALID_DECISION');
  });

  it('a resolution the agent records itself approves nothing', () => {
    const byAgent = {
      type: 'CheckpointResolved',
      data: { checkpointId: ids.checkpoint, decision: 'approve', resolvedBy: 'u1' },
      recordedBy: { kind: 'agent' },
    } as TaskEvent;
    const t = task([...atReview(), byAgent]);
    expect(itemReview(t, item([...atReview(), byAgent], 'storyboard')).state).toBe('open');
    expect(t.continuation?.pending).toBe(false);
  });
});
