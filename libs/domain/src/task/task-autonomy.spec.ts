import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { taskDecider } from './task-decider';
import { planBudgetIdForCard } from './task-ids';
import { activeWithInbox, claimed, ids, taskCreated, turnClosed, turnOpened } from './task.fixtures';
import type { TaskEvent } from './task-events';
import type { ExistingTask } from './task-state';

// Autonomy on the task stream (article §8): what items deliver and what shows them done, the
// plan's budget card (approved once, it is the plan's budget), who directed the work, and an
// approval card that names the call's hash and quote.

const { given } = deciderSpec(taskDecider);
const task = (events: TaskEvent[]) => fold(taskDecider, events) as ExistingTask;

const ART = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const JOB1 = '1a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const JOB2 = '2a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SHOT1 = '3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

const planned: TaskEvent = {
  type: 'ChecklistPlanned',
  data: {
    items: [
      { itemId: 'script', title: 'Script', dependsOn: [], output: { kind: 'artifact' } },
      { itemId: 'shots', title: 'Shots', dependsOn: ['script'], output: { kind: 'media', media: 'video', count: 2 } },
      { itemId: 'pick', title: 'Pick one', dependsOn: ['shots'], output: { kind: 'decision' } },
    ],
  },
};
const planQuote = {
  amountMinor: 80,
  currency: 'USD',
  totalMinor: 80,
  approvedMinor: 0,
  lines: [{ itemId: 'shots', media: 'video' as const, count: 2, amountMinor: 80 }],
};
const budgetCard: TaskEvent = {
  type: 'CheckpointOpened',
  data: { checkpointId: ids.checkpoint, turnId: ids.turn1, kind: 'budget', question: 'Approve 0.80 USD', planQuote },
};
const decided: TaskEvent = {
  type: 'ContinuationDecided',
  data: {
    turnId: ids.turn1,
    decision: 'await_person',
    reason: 'budget_needed',
    progress: ['item_done'],
    autoTurns: 0,
    turnsWithoutProgress: 0,
    itemsDone: 1,
  },
};
const done = (itemId: string, evidence: object): TaskEvent => ({
  type: 'ChecklistItemChanged',
  data: { itemId, status: 'done', evidence } as never,
});
const change = (itemId: string, evidence: object, linkedArtifactIds?: string[]) => ({
  type: 'ChangeChecklistItem' as const,
  itemId,
  status: 'done' as const,
  evidence: evidence as never,
  ...(linkedArtifactIds ? { linkedArtifactIds } : {}),
});

describe('task: items declare what they deliver, and evidence must match it', () => {
  it('an artefact item takes an artefact version, not a job', () => {
    given([...activeWithInbox(), planned])
      .when(change('script', { kind: 'job', jobId: JOB1 }))
      .thenThrows('EVIDENCE_MISMATCH');
    given([...activeWithInbox(), planned])
      .when(change('script', { kind: 'artifact_version', artifactId: ART, version: 1 }))
      .then([done('script', { kind: 'artifact_version', artifactId: ART, version: 1 })]);
  });

  it('a media item of two needs two jobs; one is refused', () => {
    given([...activeWithInbox(), planned])
      .when(change('shots', { kind: 'job', jobId: JOB1 }))
      .thenThrows('EVIDENCE_MISMATCH');
    given([...activeWithInbox(), planned])
      .when(change('shots', { kind: 'jobs', jobIds: [JOB1, JOB2] }, [SHOT1]))
      .then([
        {
          type: 'ChecklistItemChanged',
          data: {
            itemId: 'shots',
            status: 'done',
            evidence: { kind: 'jobs', jobIds: [JOB1, JOB2] },
            linkedArtifactIds: [SHOT1],
          },
        },
      ]);
  });

  it('a decision item takes only the person’s review', () => {
    given([...activeWithInbox(), planned])
      .when(change('pick', { kind: 'artifact_version', artifactId: ART, version: 1 }))
      .thenThrows('EVIDENCE_MISMATCH');
  });

  it('links accumulate, outlive a redo (adjust back to in progress) and a re-plan that keeps the id', () => {
    const events = [
      ...activeWithInbox(),
      planned,
      done('script', { kind: 'artifact_version', artifactId: ART, version: 1 }),
      { type: 'ChecklistItemChanged', data: { itemId: 'script', status: 'in_progress', note: 'warmer' } } as TaskEvent,
      { ...planned, data: { items: [{ ...planned.data.items[0], title: 'Script, v2' }] } } as TaskEvent,
    ];
    const script = task(events).checklist.find((i) => i.itemId === 'script')!;
    expect(script).toMatchObject({
      status: 'in_progress',
      evidence: null,
      linkedArtifactIds: [ART],
      title: 'Script, v2',
    });
    expect(script.output).toEqual({ kind: 'artifact' });
    // A link already held is not written again.
    given(events)
      .when({ type: 'ChangeChecklistItem', itemId: 'script', status: 'in_progress', linkedArtifactIds: [ART] })
      .then([]);
  });

  it('re-planning the same items with another output is a change, the same output again is not', () => {
    given([...activeWithInbox(), planned])
      .when({ type: 'PlanChecklist', items: planned.data.items as never })
      .then([]);
    const other = planned.data.items.map((i) =>
      i.itemId === 'shots' ? { ...i, output: { kind: 'media', media: 'video', count: 3 } } : i,
    );
    given([...activeWithInbox(), planned])
      .when({ type: 'PlanChecklist', items: other as never })
      .then([{ type: 'ChecklistPlanned', data: { items: other } } as TaskEvent]);
  });
  it('the person’s re-plan keeps the outputs items declared when it sends none (keepOutputs); the agent’s re-plan says what it says', () => {
    const retitled = planned.data.items.map(({ output: _output, ...i }) => ({ ...i, title: `${i.title}!` }));
    given([...activeWithInbox(), planned])
      .when({ type: 'PlanChecklist', items: retitled as never, keepOutputs: true })
      .then([
        {
          type: 'ChecklistPlanned',
          data: { items: planned.data.items.map((i) => ({ ...i, title: `${i.title}!` })) },
        } as TaskEvent,
      ]);
    given([...activeWithInbox(), planned])
      .when({ type: 'PlanChecklist', items: retitled as never })
      .then([{ type: 'ChecklistPlanned', data: { items: retitled } } as TaskEvent]);
  });
});

describe('task: the plan’s budget card', () => {
  const atBudget = [
    ...activeWithInbox(),
    planned,
    done('script', { kind: 'artifact_version', artifactId: ART, version: 1 }),
    budgetCard,
    turnClosed(),
    decided,
  ];

  it('opens only with a plan quote whose lines add up to its total, and approves total less what was approved', () => {
    const open = {
      type: 'OpenCheckpoint' as const,
      checkpointId: ids.checkpoint2,
      turnId: ids.turn1,
      kind: 'budget' as const,
      question: 'q',
    };
    given([...activeWithInbox(), planned])
      .when(open)
      .thenThrows('INVALID_COMMAND');
    given([...activeWithInbox(), planned])
      .when({ ...open, planQuote: { ...planQuote, totalMinor: 90, amountMinor: 90 } })
      .thenThrows('INVALID_COMMAND');
    given([...activeWithInbox(), planned])
      .when({ ...open, planQuote: { ...planQuote, approvedMinor: 40 } })
      .thenThrows('INVALID_COMMAND');
    given([...activeWithInbox(), planned])
      .when({ ...open, callId: `${ids.turn1}:1:0`, planQuote })
      .thenThrows('INVALID_COMMAND');
  });

  it('approved by the person, its total is the plan’s budget, and the task is owed one turn', () => {
    const after = task([
      ...atBudget,
      { type: 'CheckpointResolved', data: { checkpointId: ids.checkpoint, decision: 'approve', resolvedBy: 'u1' } },
    ]);
    expect(after.budgets).toEqual([
      {
        budgetId: planBudgetIdForCard(ids.checkpoint),
        amountMinor: 80,
        currency: 'USD',
        approvedBy: 'u1',
        checkpointId: ids.checkpoint,
      },
    ]);
    expect(after.continuation).toMatchObject({ pending: true, pendingBy: 'person' });
  });

  it('declined, it approves nothing and still owes a turn (each paid call asks on its own); only approve or reject decide it', () => {
    const after = task([
      ...atBudget,
      { type: 'CheckpointResolved', data: { checkpointId: ids.checkpoint, decision: 'reject', resolvedBy: 'u1' } },
    ]);
    expect(after.budgets).toEqual([]);
    expect(after.continuation).toMatchObject({ pending: true, pendingBy: 'person' });
    given(atBudget)
      .when({
        type: 'ResolveCheckpoint',
        checkpointId: ids.checkpoint,
        decision: 'adjust',
        answer: 'less',
        resolvedBy: 'u1',
      })
      .thenThrows('INVALID_DECISION');
  });

  it('an agent’s approval of the card approves no budget', () => {
    const after = task([
      ...atBudget,
      {
        type: 'CheckpointResolved',
        data: { checkpointId: ids.checkpoint, decision: 'approve', resolvedBy: 'u1' },
        recordedBy: { kind: 'agent' },
      },
    ]);
    expect(after.budgets).toEqual([]);
    expect(after.status).toBe('waiting');
  });

  it('with a review card open too, the turn is owed once, when the last of the two is answered', () => {
    const review: TaskEvent = {
      type: 'CheckpointOpened',
      data: {
        checkpointId: ids.checkpoint2,
        turnId: ids.turn1,
        kind: 'review',
        itemId: 'script',
        question: 'Review the script',
      },
    };
    const both = [
      ...activeWithInbox(),
      planned,
      done('script', { kind: 'artifact_version', artifactId: ART, version: 1 }),
      budgetCard,
      review,
      turnClosed(),
      decided,
    ];
    const first = [
      ...both,
      {
        type: 'CheckpointResolved',
        data: { checkpointId: ids.checkpoint2, decision: 'approve', resolvedBy: 'u1' },
      } as TaskEvent,
    ];
    expect(task(first).continuation).toMatchObject({ pending: false });
    const second = [
      ...first,
      {
        type: 'CheckpointResolved',
        data: { checkpointId: ids.checkpoint, decision: 'approve', resolvedBy: 'u1' },
      } as TaskEvent,
    ];
    expect(task(second).continuation).toMatchObject({ pending: true, pendingBy: 'person' });
  });
});

describe('task: who directed the work', () => {
  const fromIntegration = (itemId: string): TaskEvent => ({
    type: 'MessageDeliveredToInbox',
    data: { itemId, messageId: itemId, text: 'render three clips', language: 'en', channel: 'api' },
  });

  it('a claim holding an integration’s message makes the work integration-directed, until a step claims the person’s own', () => {
    const base = [taskCreated(), fromIntegration(ids.item1), turnOpened(), claimed(ids.turn1, 1, [ids.item1])];
    expect(task(base).directedBy).toBe('integration');
    const personal: TaskEvent = {
      type: 'MessageDeliveredToInbox',
      data: { itemId: ids.item2, messageId: ids.item2, text: 'go on', language: 'en' },
    };
    expect(task([...base, personal, claimed(ids.turn1, 2, [ids.item2])]).directedBy).toBe('person');
    expect(
      task([...base, personal, fromIntegration(ids.item3), claimed(ids.turn1, 2, [ids.item2, ids.item3])]).directedBy,
    ).toBe('integration');
  });

  it('delivery records the integration’s channel and nothing for the person’s own', () => {
    given([taskCreated()])
      .when({ type: 'DeliverMessage', itemId: ids.item1, text: 'x', language: 'en', channel: 'api' })
      .then([fromIntegration(ids.item1)].map((e) => ({ ...e, data: { ...e.data, text: 'x' } }) as TaskEvent));
    given([taskCreated()])
      .when({ type: 'DeliverMessage', itemId: ids.item1, text: 'x', language: 'en', channel: 'ui' })
      .then([
        {
          type: 'MessageDeliveredToInbox',
          data: { itemId: ids.item1, messageId: ids.item1, text: 'x', language: 'en' },
        },
      ]);
  });
});

describe('task: an approval card names the call’s hash and quote', () => {
  it('the same card again is a no-op, the same id with another quote is a conflict', () => {
    const callId = `${ids.turn1}:1:0`;
    const open = {
      type: 'OpenCheckpoint' as const,
      checkpointId: ids.checkpoint,
      turnId: ids.turn1,
      kind: 'approval' as const,
      callId,
      question: 'Generate a video for 0.40 USD?',
      argumentsHash: 'a'.repeat(64),
      callQuote: { quoteId: JOB1, amountMinor: 40, currency: 'USD' },
    };
    const { type: _command, ...data } = open;
    const events = [...activeWithInbox(), { type: 'CheckpointOpened', data } as TaskEvent];
    given(events).when(open).then([]);
    given(events)
      .when({ ...open, callQuote: { ...open.callQuote, amountMinor: 80 } })
      .thenThrows('CHECKPOINT_CONFLICT');
    given([...activeWithInbox()])
      .when({ ...open, kind: 'question', callId: undefined })
      .thenThrows('INVALID_COMMAND');
  });
});
