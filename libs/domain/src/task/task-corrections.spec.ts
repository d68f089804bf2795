import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { moveNote } from './decide-corrections';
import { taskDecider } from './task-decider';
import type { TaskEvent } from './task-events';
import {
  activeWithInbox,
  claimed,
  delivered,
  ids,
  person,
  released,
  stopped,
  system,
  taskCreated,
  turnClosed,
} from './task.fixtures';

const { given } = deciderSpec(taskDecider);

const lightweight: TaskEvent = {
  type: 'TaskCreated',
  data: { taskId: ids.task, kind: 'lightweight', goal: 'One poster', language: 'en', originMessageId: ids.origin },
};
const summaryUpdated = (summary: string): TaskEvent => ({
  type: 'TaskSummaryUpdated',
  data: { summary, turnId: ids.turn1, by: system },
});
const moved = (itemId: string, toTaskId: string, consumed: boolean): TaskEvent => ({
  type: 'MessageMoved',
  data: { itemId, messageId: itemId, toTaskId, consumed, by: 'u1' },
});
const archived: TaskEvent = { type: 'TaskArchived', data: { by: person } };
const completed: TaskEvent = { type: 'TaskCompleted', data: {} };
/** Two delivered messages, no turn: what a merge or a move usually starts from. */
const idleWithInbox = (): TaskEvent[] => [taskCreated(), delivered(ids.item1), delivered(ids.item2)];

describe('task: the routing summary', () => {
  it('records the runtime summary, and the same summary again is a no-op', () => {
    given([taskCreated()])
      .when({ type: 'UpdateTaskSummary', summary: 'Design a poster — drafted in blue', turnId: ids.turn1, by: system })
      .then([summaryUpdated('Design a poster — drafted in blue')]);
    given([taskCreated(), summaryUpdated('Design a poster — drafted in blue')])
      .when({ type: 'UpdateTaskSummary', summary: 'Design a poster — drafted in blue', turnId: ids.turn2, by: system })
      .then([]);
    expect(fold(taskDecider, [taskCreated(), summaryUpdated('a'), summaryUpdated('b')])).toMatchObject({
      summary: 'b',
    });
  });

  it('is still recorded on a stopped or completed task, and dropped as a no-op on an archived one', () => {
    given([taskCreated(), stopped()])
      .when({ type: 'UpdateTaskSummary', summary: 'stopped after the draft', by: system })
      .then([{ type: 'TaskSummaryUpdated', data: { summary: 'stopped after the draft', by: system } }]);
    given([taskCreated(), completed])
      .when({ type: 'UpdateTaskSummary', summary: 'done', by: system })
      .then([{ type: 'TaskSummaryUpdated', data: { summary: 'done', by: system } }]);
    given([taskCreated(), archived]).when({ type: 'UpdateTaskSummary', summary: 'late', by: system }).then([]);
  });

  it('refuses a blank summary and an unknown task', () => {
    given([taskCreated()])
      .when({ type: 'UpdateTaskSummary', summary: '   ', by: system })
      .thenThrows('INVALID_COMMAND');
    given([]).when({ type: 'UpdateTaskSummary', summary: 'x', by: system }).thenThrows('TASK_NOT_FOUND');
  });
});

describe('task: upgrading a lightweight task', () => {
  it('upgrades once, naming who did it; a persistent task is a no-op', () => {
    given([lightweight])
      .when({ type: 'UpgradeTask', reason: 'needs several steps', by: person })
      .then([
        {
          type: 'TaskUpgraded',
          data: { from: 'lightweight', to: 'persistent', reason: 'needs several steps', by: person },
        },
      ]);
    const upgraded: TaskEvent = {
      type: 'TaskUpgraded',
      data: { from: 'lightweight', to: 'persistent', reason: 'x', by: person },
    };
    expect(fold(taskDecider, [lightweight, upgraded])).toMatchObject({ kind: 'persistent' });
    given([lightweight, upgraded]).when({ type: 'UpgradeTask', reason: 'again', by: person }).then([]);
    given([taskCreated()]).when({ type: 'UpgradeTask', reason: 'again', by: person }).then([]);
  });

  it('refuses a stopped, completed or archived lightweight task', () => {
    given([lightweight, stopped()]).when({ type: 'UpgradeTask', reason: 'r', by: person }).thenThrows('TASK_STOPPED');
    given([lightweight, completed]).when({ type: 'UpgradeTask', reason: 'r', by: person }).thenThrows('TASK_CLOSED');
    given([lightweight, archived]).when({ type: 'UpgradeTask', reason: 'r', by: person }).thenThrows('TASK_CLOSED');
  });
});

describe('task: moving a message out (the source side)', () => {
  const moveOut = (itemId: string, toTaskId: string = ids.otherTask, claimCommitted?: boolean) => ({
    type: 'MoveMessageOut' as const,
    itemId,
    toTaskId,
    by: 'u1',
    ...(claimCommitted !== undefined ? { claimCommitted } : {}),
  });

  it('an unconsumed item moves out and leaves the open inbox, so no step claims it', () => {
    given(activeWithInbox())
      .when(moveOut(ids.item1))
      .then([moved(ids.item1, ids.otherTask, false)]);
    const history = [...activeWithInbox(), moved(ids.item1, ids.otherTask, false)];
    expect(fold(taskDecider, history)).toMatchObject({
      inbox: { [ids.item1]: { status: 'withdrawn', movedTo: { taskId: ids.otherTask, consumed: false } } },
    });
    given(history)
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 1 })
      .then([claimed(ids.turn1, 1, [ids.item2])]);
  });

  it('an item whose claim was released is unconsumed again', () => {
    given([...activeWithInbox(), claimed(ids.turn1, 1, [ids.item1]), released(ids.turn1, 1, [ids.item1])])
      .when(moveOut(ids.item1))
      .then([moved(ids.item1, ids.otherTask, false)]);
  });

  it('a consumed item (its step committed) moves as a copy and stays as history', () => {
    const history = [...activeWithInbox(), claimed(ids.turn1, 1, [ids.item1]), turnClosed(ids.turn1)];
    given(history)
      .when(moveOut(ids.item1, ids.otherTask, true))
      .then([moved(ids.item1, ids.otherTask, true)]);
    expect(fold(taskDecider, [...history, moved(ids.item1, ids.otherTask, true)])).toMatchObject({
      inbox: { [ids.item1]: { status: 'claimed', movedTo: { taskId: ids.otherTask, consumed: true } } },
    });
  });

  it('a claimed item whose step has not committed is refused, like a withdrawal', () => {
    given([...activeWithInbox(), claimed(ids.turn1, 1, [ids.item1])])
      .when(moveOut(ids.item1))
      .thenThrows('INBOX_ITEM_CLAIMED');
    given([...activeWithInbox(), claimed(ids.turn1, 1, [ids.item1])])
      .when(moveOut(ids.item1, ids.otherTask, false))
      .thenThrows('INBOX_ITEM_CLAIMED');
  });

  it('the same move again is a no-op; a move of the same item elsewhere is refused', () => {
    const history = [...activeWithInbox(), moved(ids.item1, ids.otherTask, false)];
    given(history).when(moveOut(ids.item1)).then([]);
    given(history).when(moveOut(ids.item1, ids.thirdTask)).thenThrows('ALREADY_MOVED');
  });

  it('refuses a move to the same task, an unknown item, a withdrawn item and an archived source', () => {
    given(activeWithInbox()).when(moveOut(ids.item1, ids.task)).thenThrows('MOVE_TO_SAME_TASK');
    given(activeWithInbox()).when(moveOut(ids.item3)).thenThrows('INBOX_ITEM_NOT_FOUND');
    given([...activeWithInbox(), { type: 'InboxItemWithdrawn', data: { itemId: ids.item1, by: 'u1' } }])
      .when(moveOut(ids.item1))
      .thenThrows('INBOX_ITEM_WITHDRAWN');
    given([...idleWithInbox(), archived])
      .when(moveOut(ids.item1))
      .thenThrows('TASK_CLOSED');
    given([]).when(moveOut(ids.item1)).thenThrows('TASK_NOT_FOUND');
  });

  it('a stopped source still lets a misrouted message go', () => {
    given([...idleWithInbox(), stopped()])
      .when(moveOut(ids.item2))
      .then([moved(ids.item2, ids.otherTask, false)]);
  });
});

describe('task: receiving a moved message (the target side)', () => {
  const movedFrom = { taskId: ids.otherTask, note: moveNote(ids.otherTask, 'moved', true), consumedThere: true };
  const deliverMoved = {
    type: 'DeliverMessage' as const,
    itemId: ids.item3,
    text: 'make it blue',
    language: 'en',
    movedFrom,
  };
  const deliveredMoved: TaskEvent = {
    type: 'MessageDeliveredToInbox',
    data: { itemId: ids.item3, messageId: ids.item3, text: 'make it blue', language: 'en', movedFrom },
  };

  it('delivers the message with where it came from; a repeat is a no-op', () => {
    given([taskCreated()]).when(deliverMoved).then([deliveredMoved]);
    given([taskCreated(), deliveredMoved]).when(deliverMoved).then([]);
    expect(fold(taskDecider, [taskCreated(), deliveredMoved])).toMatchObject({
      inbox: { [ids.item3]: { status: 'delivered', movedFrom: { taskId: ids.otherTask, consumedThere: true } } },
    });
  });

  it('refuses a message the task holds already from elsewhere (moving it back), and a final target', () => {
    given([taskCreated(), delivered(ids.item3)])
      .when(deliverMoved)
      .thenThrows('MESSAGE_ALREADY_IN_TASK');
    given([taskCreated(), stopped()]).when(deliverMoved).thenThrows('TASK_STOPPED');
    given([taskCreated(), archived]).when(deliverMoved).thenThrows('TASK_CLOSED');
    given([taskCreated()])
      .when({ ...deliverMoved, movedFrom: { ...movedFrom, taskId: ids.task } })
      .thenThrows('MOVE_TO_SAME_TASK');
  });
});

describe('task: merging (source and target sides)', () => {
  const merge = (targetTaskId: string = ids.otherTask) => ({ type: 'MergeInto' as const, targetTaskId, by: 'u1' });
  const mergedAsSource = (movedItemIds: string[]): TaskEvent[] => [
    {
      type: 'TasksMerged',
      data: { sourceTaskId: ids.task, targetTaskId: ids.otherTask, role: 'source', movedItemIds, by: 'u1' },
    },
    { type: 'TaskArchived', data: { by: { kind: 'user', userId: 'u1' }, mergedInto: ids.otherTask } },
  ];

  it('moves the open (unclaimed) items and archives the source with a pointer', () => {
    given(idleWithInbox())
      .when(merge())
      .then(mergedAsSource([ids.item1, ids.item2]));
    expect(fold(taskDecider, [...idleWithInbox(), ...mergedAsSource([ids.item1, ids.item2])])).toMatchObject({
      status: 'archived',
      mergedInto: ids.otherTask,
      inbox: { [ids.item1]: { status: 'withdrawn', movedTo: { taskId: ids.otherTask, consumed: false } } },
    });
  });

  it('leaves consumed items with the source', () => {
    const history: TaskEvent[] = [
      ...idleWithInbox(),
      { type: 'TurnOpened', data: { turnId: ids.turn1, reason: 'message' } },
      claimed(ids.turn1, 1, [ids.item1]),
      turnClosed(ids.turn1),
    ];
    given(history)
      .when(merge())
      .then(mergedAsSource([ids.item2]));
  });

  it('the same merge again is a no-op; a merge into another task after it is refused', () => {
    const history = [...idleWithInbox(), ...mergedAsSource([ids.item1, ids.item2])];
    given(history).when(merge()).then([]);
    given(history).when(merge(ids.thirdTask)).thenThrows('ALREADY_MERGED');
  });

  it('refuses a merge into itself, an archived source and a source with an active turn', () => {
    given(idleWithInbox()).when(merge(ids.task)).thenThrows('MERGE_INTO_SELF');
    given([...idleWithInbox(), archived])
      .when(merge())
      .thenThrows('TASK_CLOSED');
    given(activeWithInbox()).when(merge()).thenThrows('TURN_STILL_ACTIVE');
    given([]).when(merge()).thenThrows('TASK_NOT_FOUND');
  });

  const accept = (sourceTaskId: string = ids.otherTask) => ({
    type: 'AcceptMerge' as const,
    sourceTaskId,
    items: [
      { itemId: ids.item2, text: 'message 2', language: 'en' },
      { itemId: ids.item3, text: 'a third', language: 'en' },
    ],
    by: 'u1',
  });
  const note = moveNote(ids.otherTask, 'merged', false);

  it('the target receives each moved item once, skipping what it already holds', () => {
    given([taskCreated(), delivered(ids.item2)])
      .when(accept())
      .then([
        {
          type: 'TasksMerged',
          data: {
            sourceTaskId: ids.otherTask,
            targetTaskId: ids.task,
            role: 'target',
            movedItemIds: [ids.item3],
            by: 'u1',
          },
        },
        {
          type: 'MessageDeliveredToInbox',
          data: {
            itemId: ids.item3,
            messageId: ids.item3,
            text: 'a third',
            language: 'en',
            movedFrom: { taskId: ids.otherTask, note, consumedThere: false },
          },
        },
      ]);
  });

  it('accepting the same source again is a no-op, even once the target stopped', () => {
    const acceptedOnce: TaskEvent = {
      type: 'TasksMerged',
      data: { sourceTaskId: ids.otherTask, targetTaskId: ids.task, role: 'target', movedItemIds: [], by: 'u1' },
    };
    given([taskCreated(), acceptedOnce]).when(accept()).then([]);
    given([taskCreated(), acceptedOnce, stopped()]).when(accept()).then([]);
  });

  it('refuses a stopped, completed or archived target, and a merge of itself', () => {
    given([taskCreated(), stopped()]).when(accept()).thenThrows('TASK_STOPPED');
    given([taskCreated(), completed]).when(accept()).thenThrows('TASK_CLOSED');
    given([taskCreated(), archived]).when(accept()).thenThrows('TASK_CLOSED');
    given([taskCreated()]).when(accept(ids.task)).thenThrows('MERGE_INTO_SELF');
  });
});
