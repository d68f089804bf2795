import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { isToolArmed } from './decide-fork';
import { taskDecider } from './task-decider';
import type { TaskEvent } from './task-events';
import { ids, taskCreated } from './task.fixtures';

const { given } = deciderSpec(taskDecider);

const forkedFrom = (sourceTaskId: string = ids.otherTask, sourcePosition = '42'): TaskEvent => ({
  type: 'ForkedFrom',
  data: { sourceTaskId, sourceRevision: 3, sourcePosition, turns: [], by: 'ops' },
});
const armed = (tools: 'all' | string[]): TaskEvent => ({ type: 'ToolsArmed', data: { tools, by: 'ops' } });

describe('task: a fork (issue 20) and its tools armed by an operator', () => {
  it('records the lineage on a copied task, with no tool armed', () => {
    given([taskCreated()])
      .when({
        type: 'RecordFork',
        sourceTaskId: ids.otherTask,
        sourceRevision: 3,
        sourcePosition: '42',
        turns: [],
        by: 'ops',
      })
      .then([forkedFrom()]);
    const state = fold(taskDecider, [taskCreated(), forkedFrom()]);
    expect(state.status !== 'none' && state.fork).toEqual({
      sourceTaskId: ids.otherTask,
      sourceRevision: 3,
      sourcePosition: '42',
      atStep: null,
      forkedBy: 'ops',
      armed: [],
    });
    expect(isToolArmed(state, 'notes.create')).toBe(false);
  });

  it('refuses a fork of itself, and the same fork twice', () => {
    given([taskCreated()])
      .when({ type: 'RecordFork', sourceTaskId: ids.task, sourceRevision: 0, sourcePosition: '1', turns: [], by: 'o' })
      .thenThrows('INVALID_COMMAND');
    given([taskCreated(), forkedFrom()])
      .when({
        type: 'RecordFork',
        sourceTaskId: ids.otherTask,
        sourceRevision: 3,
        sourcePosition: '42',
        turns: [],
        by: 'o',
      })
      .thenThrows('ALREADY_FORKED');
  });

  it('arms tools cumulatively, leaves out those armed already, and all arms everything', () => {
    given([taskCreated(), forkedFrom(), armed(['notes.create'])])
      .when({ type: 'ArmTools', tools: ['notes.create', 'notes.list'], by: 'ops' })
      .then([armed(['notes.list'])]);
    given([taskCreated(), forkedFrom(), armed(['notes.create'])])
      .when({ type: 'ArmTools', tools: ['notes.create'], by: 'ops' })
      .then([]);
    given([taskCreated(), forkedFrom(), armed('all')])
      .when({ type: 'ArmTools', tools: ['notes.create'], by: 'ops' })
      .then([]);
    const some = fold(taskDecider, [taskCreated(), forkedFrom(), armed(['notes.create'])]);
    expect([isToolArmed(some, 'notes.create'), isToolArmed(some, 'notes.list')]).toEqual([true, false]);
    const all = fold(taskDecider, [taskCreated(), forkedFrom(), armed(['notes.create']), armed('all')]);
    expect(isToolArmed(all, 'image.generate')).toBe(true);
  });

  it('refuses to arm a task that is no fork, whose tools run anyway', () => {
    given([taskCreated()]).when({ type: 'ArmTools', tools: 'all', by: 'ops' }).thenThrows('NOT_A_FORK');
    expect(isToolArmed(fold(taskDecider, [taskCreated()]), 'notes.create')).toBe(true);
  });

  it('a fork of a fork shows its own lineage and disarms what the copied fork had armed', () => {
    const state = fold(taskDecider, [taskCreated(), forkedFrom(), armed('all'), forkedFrom(ids.thirdTask, '77')]);
    expect(state.status !== 'none' && state.fork?.sourceTaskId).toBe(ids.thirdTask);
    expect(isToolArmed(state, 'notes.create')).toBe(false);
  });
});
