import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { taskDecider } from './task-decider';
import { existing as existingTask } from './task-guards';
import { activeWithInbox, approvalOpened, callOf, ids, person, taskCreated, turnClosed } from './task.fixtures';
import type { TaskEvent } from './task-events';

const { given } = deciderSpec(taskDecider);
const create = {
  type: 'CreateTask' as const,
  taskId: ids.task,
  kind: 'persistent' as const,
  goal: 'Design a poster',
  language: 'en',
  originMessageId: ids.origin,
};
const paused: TaskEvent = { type: 'TaskPaused', data: { by: person } };

describe('task lifecycle', () => {
  it('creates a task that speaks the language of the message it came from', () => {
    given([])
      .when({ ...create, language: 'zh-Hans' })
      .then([taskCreated('zh-Hans')]);
    expect(fold(taskDecider, [taskCreated('zh-Hans')])).toMatchObject({ status: 'active', language: 'zh-Hans' });
  });

  it('creating it again from the same message writes nothing; from another message it is refused', () => {
    given([taskCreated()]).when(create).then([]);
    given([taskCreated()])
      .when({ ...create, originMessageId: ids.item1 })
      .thenThrows('TASK_ALREADY_EXISTS');
  });

  it('pauses and resumes back to waiting while a checkpoint is open', () => {
    const history = [...activeWithInbox(), approvalOpened(callOf(ids.turn1, 1, 0))];
    given(history).when({ type: 'PauseTask', by: person }).then([paused]);
    given([...history, paused])
      .when({ type: 'PauseTask', by: person })
      .then([]);
    given([...history, paused])
      .when({ type: 'ResumeTask', by: person })
      .then([{ type: 'TaskResumed', data: { by: person } }]);
    expect(fold(taskDecider, [...history, paused, { type: 'TaskResumed', data: { by: person } }]).status).toBe(
      'waiting',
    );
  });

  it('refuses claims while paused, so a running turn stops at its next step', () => {
    given([...activeWithInbox(), paused])
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 1 })
      .thenThrows('TASK_PAUSED');
  });

  it('completes only once no turn is active', () => {
    given(activeWithInbox()).when({ type: 'CompleteTask' }).thenThrows('TURN_STILL_ACTIVE');
    given([...activeWithInbox(), turnClosed()])
      .when({ type: 'CompleteTask', summary: 'Poster delivered' })
      .then([{ type: 'TaskCompleted', data: { summary: 'Poster delivered' } }]);
  });

  it('a completed task takes no new message but can be archived', () => {
    const done: TaskEvent[] = [taskCreated(), { type: 'TaskCompleted', data: {} }];
    given(done)
      .when({ type: 'DeliverMessage', itemId: ids.item1, text: 'one more thing', language: 'en' })
      .thenThrows('TASK_CLOSED');
    given(done)
      .when({ type: 'ArchiveTask', by: person })
      .then([{ type: 'TaskArchived', data: { by: person } }]);
  });

  it('changes autonomy only when it differs', () => {
    given([taskCreated()])
      .when({ type: 'ChangeAutonomy', level: 'autonomous', by: 'u1' })
      .then([{ type: 'AutonomyChanged', data: { level: 'autonomous', by: 'u1' } }]);
    given([taskCreated()]).when({ type: 'ChangeAutonomy', level: 'assisted', by: 'u1' }).then([]);
  });

  it('versions the brief and refuses a checklist with an unknown dependency', () => {
    const v1: TaskEvent = { type: 'BriefUpdated', data: { version: 1, brief: 'A3, blue', by: person } };
    given([taskCreated(), v1])
      .when({ type: 'UpdateBrief', brief: 'A3, red', by: person })
      .then([{ type: 'BriefUpdated', data: { version: 2, brief: 'A3, red', by: person } }]);
    given([taskCreated()])
      .when({ type: 'PlanChecklist', items: [{ itemId: 'draft', title: 'Draft', dependsOn: ['sketch'] }] })
      .thenThrows('INVALID_COMMAND');
  });

  it('moves a planned checklist item and refuses an unknown one', () => {
    const planned: TaskEvent = {
      type: 'ChecklistPlanned',
      data: { items: [{ itemId: 'draft', title: 'Draft', dependsOn: [] }] },
    };
    given([taskCreated(), planned])
      .when({ type: 'ChangeChecklistItem', itemId: 'draft', status: 'done' })
      .then([{ type: 'ChecklistItemChanged', data: { itemId: 'draft', status: 'done' } }]);
    given([taskCreated(), planned])
      .when({ type: 'ChangeChecklistItem', itemId: 'render', status: 'done' })
      .thenThrows('CHECKLIST_ITEM_NOT_FOUND');
  });

  it('records the evidence of a done item, and a re-plan keeps what items of the same id had', () => {
    const evidence = { kind: 'job' as const, jobId: '00000000-0000-4000-8000-0000000000c1' };
    const planned: TaskEvent = {
      type: 'ChecklistPlanned',
      data: { items: [{ itemId: 'draft', title: 'Draft', dependsOn: [] }] },
    };
    const done: TaskEvent = { type: 'ChecklistItemChanged', data: { itemId: 'draft', status: 'done', evidence } };
    given([taskCreated(), planned])
      .when({ type: 'ChangeChecklistItem', itemId: 'draft', status: 'done', evidence })
      .then([done]);
    given([taskCreated(), planned, done])
      .when({ type: 'ChangeChecklistItem', itemId: 'draft', status: 'done', evidence })
      .then([]);
    const replanned: TaskEvent = {
      type: 'ChecklistPlanned',
      data: {
        items: [
          { itemId: 'draft', title: 'Draft, warmer', dependsOn: [] },
          { itemId: 'final', title: 'Final', dependsOn: ['draft'] },
        ],
      },
    };
    const state = existingTask(fold(taskDecider, [taskCreated(), planned, done, replanned]));
    expect(state.checklist.map(({ itemId, status, evidence: e }) => ({ itemId, status, evidence: e }))).toEqual([
      { itemId: 'draft', status: 'done', evidence },
      { itemId: 'final', status: 'pending', evidence: null },
    ]);
  });
});
