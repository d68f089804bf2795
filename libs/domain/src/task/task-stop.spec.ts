import { deciderSpec } from '@lomo/testing';
import { taskDecider } from './task-decider';
import type { TaskCommand } from './task-commands';
import {
  activeWithInbox,
  approvalOpened,
  callOf,
  claimed,
  ids,
  person,
  stopped,
  system,
  taskCreated,
} from './task.fixtures';

const { given } = deciderSpec(taskDecider);

describe('task: a stopped task is never restarted by a late event', () => {
  it('refuses to stop while the active turn is not named as cancelled (cancel it first)', () => {
    given(activeWithInbox()).when({ type: 'StopTask', by: person }).thenThrows('TURN_STILL_ACTIVE');
    given(activeWithInbox())
      .when({ type: 'StopTask', by: person, cancelledTurnId: ids.turn2 })
      .thenThrows('TURN_STILL_ACTIVE');
  });

  it('stops naming the cancelled turn, which frees the turn slot for good', () => {
    given(activeWithInbox())
      .when({ type: 'StopTask', by: person, reason: 'enough', cancelledTurnId: ids.turn1 })
      .then([{ type: 'TaskStopped', data: { by: person, reason: 'enough', cancelledTurnId: ids.turn1 } }]);
  });

  it('stopping twice writes nothing', () => {
    given([taskCreated(), stopped()]).when({ type: 'StopTask', by: person }).then([]);
  });

  const history = [
    ...activeWithInbox(),
    approvalOpened(callOf(ids.turn1, 1, 0)),
    claimed(ids.turn1, 1, [ids.item1]),
    stopped(ids.turn1),
  ];
  const late: Array<[string, TaskCommand]> = [
    ['a wake-up opening a turn', { type: 'OpenTurn', turnId: ids.turn2, reason: 'watchdog' }],
    ['a new message', { type: 'DeliverMessage', itemId: ids.item3, text: 'still there?', language: 'en' }],
    ['a claim by the cancelled turn', { type: 'ClaimInboxItems', turnId: ids.turn1, step: 2 }],
    [
      'an approval arriving late',
      {
        type: 'ResolveCheckpoint',
        checkpointId: ids.checkpoint,
        decision: 'approve',
        callId: callOf(ids.turn1, 1, 0),
        resolvedBy: 'u1',
      },
    ],
    ['a resume', { type: 'ResumeTask', by: person }],
    ['a pause', { type: 'PauseTask', by: system }],
    ['a completion', { type: 'CompleteTask' }],
    [
      'a new checkpoint',
      {
        type: 'OpenCheckpoint',
        checkpointId: ids.checkpoint2,
        turnId: ids.turn1,
        kind: 'question',
        question: 'Colour?',
      },
    ],
  ];
  it.each(late)('refuses %s with TASK_STOPPED', (_what, command) => {
    given(history).when(command).thenThrows('TASK_STOPPED');
  });

  it('still archives a stopped task', () => {
    given([taskCreated(), stopped()])
      .when({ type: 'ArchiveTask', by: person })
      .then([{ type: 'TaskArchived', data: { by: person } }]);
  });
});
