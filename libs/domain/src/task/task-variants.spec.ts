import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { taskDecider } from './task-decider';
import type { TaskEvent } from './task-events';
import { isFinal, isRunnable } from './task-queries';
import { openCheckpointCount, settleRunnableStatus } from './task-waiting';
import {
  activeWithInbox,
  approvalOpened,
  callOf,
  ids,
  person,
  stopped,
  taskCreated,
  turnClosed,
} from './task.fixtures';

const { given } = deciderSpec(taskDecider);
const completed: TaskEvent = { type: 'TaskCompleted', data: { summary: 'poster done' } };
const archived: TaskEvent = { type: 'TaskArchived', data: { by: person } };
const resumed: TaskEvent = { type: 'TaskResumed', data: { by: person } };

describe('task: each status carries the fields it has', () => {
  it('a stopped task names who stopped it and has no active turn; the cancelled turn counts as closed', () => {
    const state = fold(taskDecider, [...activeWithInbox(), stopped(ids.turn1)]);
    expect(state).toMatchObject({
      status: 'stopped',
      stoppedBy: person,
      activeTurnId: null,
      lastClosedTurn: { turnId: ids.turn1, outcome: 'cancelled' },
    });
    expect(isFinal(state)).toBe(true);
    given([...activeWithInbox(), stopped(ids.turn1)])
      .when({ type: 'CloseTurn', turnId: ids.turn1, outcome: 'cancelled' })
      .then([]);
  });

  it('a late event cannot move a stopped task: a resume folded after the stop leaves it stopped', () => {
    const state = fold(taskDecider, [taskCreated(), stopped(), resumed]);
    expect(state).toMatchObject({ status: 'stopped', stoppedBy: person });
    given([taskCreated(), stopped(), resumed])
      .when({ type: 'OpenTurn', turnId: ids.turn1, reason: 'message' })
      .thenThrows('TASK_STOPPED');
  });

  it('a completed task keeps its completion summary, also once archived', () => {
    expect(fold(taskDecider, [taskCreated(), completed])).toMatchObject({
      status: 'completed',
      completionSummary: 'poster done',
      activeTurnId: null,
    });
    expect(fold(taskDecider, [taskCreated(), completed, archived])).toMatchObject({
      status: 'archived',
      completionSummary: 'poster done',
      stoppedBy: null,
    });
    given([taskCreated(), completed, archived]).when({ type: 'ArchiveTask', by: person }).then([]);
  });

  it('an archived stopped task still names who stopped it', () => {
    expect(fold(taskDecider, [taskCreated(), stopped(), archived])).toMatchObject({
      status: 'archived',
      stoppedBy: person,
      completionSummary: null,
    });
  });

  it('a paused task keeps the turn that was active when it paused, until the turn closes', () => {
    const paused: TaskEvent = { type: 'TaskPaused', data: { by: person } };
    expect(fold(taskDecider, [...activeWithInbox(), paused])).toMatchObject({
      status: 'paused',
      activeTurnId: ids.turn1,
    });
    given([...activeWithInbox(), paused])
      .when({ type: 'CloseTurn', turnId: ids.turn1, outcome: 'cancelled' })
      .then([turnClosed(ids.turn1, 'cancelled')]);
  });
});

describe('task: the waiting rule', () => {
  const asked = [...activeWithInbox(), approvalOpened(callOf(ids.turn1, 1, 0))];

  it('a runnable task waits while a checkpoint is open, even after the turn that asked has closed', () => {
    const state = fold(taskDecider, [...asked, turnClosed(ids.turn1, 'failed')]);
    expect(state).toMatchObject({ status: 'waiting', activeTurnId: null });
    expect(isRunnable(state)).toBe(true);
    expect(state.status !== 'none' && openCheckpointCount(state)).toBe(1);
    // Waiting is runnable: another turn may open (and answer nothing by itself).
    given([...asked, turnClosed(ids.turn1, 'failed')])
      .when({ type: 'OpenTurn', turnId: ids.turn2, reason: 'watchdog' })
      .then([{ type: 'TurnOpened', data: { turnId: ids.turn2, reason: 'watchdog' } }]);
  });

  it('applies only to the runnable statuses; the rest are kept', () => {
    expect(settleRunnableStatus('active', 1)).toBe('waiting');
    expect(settleRunnableStatus('waiting', 0)).toBe('active');
    expect(settleRunnableStatus('active', 0)).toBe('active');
    expect(settleRunnableStatus('paused', 2)).toBe('paused');
    expect(settleRunnableStatus('stopped', 1)).toBe('stopped');
    expect(settleRunnableStatus(null, 1)).toBeNull();
  });
});
