import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { taskDecider } from './task-decider';
import { ids, person, stopped, taskCreated, turnClosed, turnOpened, approvalOpened, callOf } from './task.fixtures';

const { given } = deciderSpec(taskDecider);

describe('task: at most one active turn per task', () => {
  it('opens a turn when none is active', () => {
    given([taskCreated()])
      .when({ type: 'OpenTurn', turnId: ids.turn1, reason: 'message' })
      .then([{ type: 'TurnOpened', data: { turnId: ids.turn1, reason: 'message' } }]);
  });

  it('refuses a second turn while one is active', () => {
    given([taskCreated(), turnOpened(ids.turn1)])
      .when({ type: 'OpenTurn', turnId: ids.turn2, reason: 'watchdog' })
      .thenThrows('TURN_ALREADY_ACTIVE');
  });

  it('treats reopening the active turn as a repeat (crash between TurnOpened and TurnStarted)', () => {
    given([taskCreated(), turnOpened(ids.turn1)])
      .when({ type: 'OpenTurn', turnId: ids.turn1, reason: 'message' })
      .then([]);
  });

  it('opens the next turn once the active one closed', () => {
    given([taskCreated(), turnOpened(ids.turn1), turnClosed(ids.turn1)])
      .when({ type: 'OpenTurn', turnId: ids.turn2, reason: 'message' })
      .then([{ type: 'TurnOpened', data: { turnId: ids.turn2, reason: 'message' } }]);
  });

  it('does not reopen a closed turn', () => {
    given([taskCreated(), turnOpened(ids.turn1), turnClosed(ids.turn1)])
      .when({ type: 'OpenTurn', turnId: ids.turn1, reason: 'message' })
      .thenThrows('TURN_NOT_ACTIVE');
  });

  it('opens a turn on a waiting task (an approval wakes it)', () => {
    const waiting = [taskCreated(), turnOpened(), approvalOpened(callOf(ids.turn1, 1, 0)), turnClosed()];
    expect(fold(taskDecider, waiting).status).toBe('waiting');
    given(waiting)
      .when({ type: 'OpenTurn', turnId: ids.turn2, reason: 'approval' })
      .then([{ type: 'TurnOpened', data: { turnId: ids.turn2, reason: 'approval' } }]);
  });

  it.each([
    ['a missing task', [], 'TASK_NOT_FOUND'],
    ['a paused task', [taskCreated(), { type: 'TaskPaused' as const, data: { by: person } }], 'TASK_PAUSED'],
    ['a stopped task', [taskCreated(), stopped()], 'TASK_STOPPED'],
    ['a completed task', [taskCreated(), { type: 'TaskCompleted' as const, data: {} }], 'TASK_CLOSED'],
  ])('refuses to open a turn on %s', (_what, history, code) => {
    given(history).when({ type: 'OpenTurn', turnId: ids.turn1, reason: 'message' }).thenThrows(code);
  });

  it('closes only the active turn, and closing it again writes nothing', () => {
    given([taskCreated(), turnOpened()])
      .when({ type: 'CloseTurn', turnId: ids.turn2, outcome: 'completed' })
      .thenThrows('TURN_NOT_ACTIVE');
    given([taskCreated(), turnOpened()])
      .when({ type: 'CloseTurn', turnId: ids.turn1, outcome: 'failed' })
      .then([turnClosed(ids.turn1, 'failed')]);
    given([taskCreated(), turnOpened(), turnClosed()])
      .when({ type: 'CloseTurn', turnId: ids.turn1, outcome: 'completed' })
      .then([]);
  });
});
