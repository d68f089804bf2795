import { existingTask, fold, taskDecider, type TaskEvent } from '@lomo/domain';
import { budgetCheckpointIdFor } from './derived-ids';
import { budgetCard, type PaidWork, type PlanQuoter } from './plan-budget';
import { created, TASK, TURN } from './plan-turn.fixtures';

// given(the task's events).when(the runtime closes a turn).then(the budget card it opens, or none):
// article §8.4's plan-level approval, quoted from the plan's declared paid outputs.

/** Ten cents a unit of anything, as one job of each kind at its defaults. */
const quoter: PlanQuoter = {
  quotePlan: (work: readonly PaidWork[]) => ({
    currency: 'USD',
    lines: work.map((w) => ({ ...w, amountMinor: 40 * w.count })),
  }),
};

const planned: TaskEvent = {
  type: 'ChecklistPlanned',
  data: {
    items: [
      { itemId: 'script', title: 'Script', dependsOn: [], output: { kind: 'artifact' } },
      {
        itemId: 'storyboard',
        title: 'Storyboard',
        dependsOn: ['script'],
        needsConfirmation: true,
        output: { kind: 'artifact' },
      },
      {
        itemId: 'shots',
        title: 'Shots',
        dependsOn: ['storyboard'],
        output: { kind: 'media', media: 'video', count: 3 },
      },
    ],
  },
};
const done = (itemId: string): TaskEvent => ({ type: 'ChecklistItemChanged', data: { itemId, status: 'done' } });
const approvedBudget = (amountMinor: number): TaskEvent => ({
  type: 'PlanBudgetApproved',
  data: { budgetId: '00000000-0000-4000-8000-0000000000b1', amountMinor, currency: 'USD', approvedBy: 'u1' },
});
const task = (events: TaskEvent[]) => existingTask(fold(taskDecider, events));
const cardFor = (events: TaskEvent[], q: PlanQuoter | undefined = quoter) => budgetCard(task(events), TURN, q);

describe('the plan’s budget card', () => {
  it('is not opened while the paid stage is not next (the script is being written)', () => {
    expect(cardFor([...created, planned])).toBeUndefined();
    expect(cardFor([...created, planned, done('script')])).toBeUndefined();
  });

  it('opens with the storyboard done (its review pending): the plan’s three videos quoted as one total', () => {
    const card = cardFor([...created, planned, done('script'), done('storyboard')]);
    expect(card).toEqual({
      type: 'OpenCheckpoint',
      checkpointId: budgetCheckpointIdFor(TASK, 'USD', 120, 0),
      turnId: TURN,
      kind: 'budget',
      question: expect.stringContaining('3 video (shots), 1.20 USD'),
      planQuote: {
        amountMinor: 120,
        currency: 'USD',
        totalMinor: 120,
        approvedMinor: 0,
        lines: [{ itemId: 'shots', media: 'video', count: 3, amountMinor: 120 }],
      },
    });
  });

  it('asks only for what the plan’s approved budgets do not cover, and nothing once they do', () => {
    const ready = [...created, planned, done('script'), done('storyboard')];
    expect(cardFor([...ready, approvedBudget(80)])?.planQuote).toMatchObject({ amountMinor: 40, approvedMinor: 80 });
    expect(cardFor([...ready, approvedBudget(120)])).toBeUndefined();
  });

  it('is asked once for one shortfall: open, approved or declined, the same card is not opened again', () => {
    const ready = [...created, planned, done('script'), done('storyboard')];
    const card = cardFor(ready)!;
    const { type: _command, ...data } = card;
    const opened: TaskEvent = { type: 'CheckpointOpened', data: data as never };
    expect(cardFor([...ready, opened])).toBeUndefined();
    const declined: TaskEvent = {
      type: 'CheckpointResolved',
      data: { checkpointId: card.checkpointId, decision: 'reject', resolvedBy: 'u1' },
    };
    expect(cardFor([...ready, opened, declined])).toBeUndefined();
  });

  it('is not opened where every paid call asks on its own: manual autonomy, an integration’s work, or no quoter', () => {
    const ready = [...created, planned, done('script'), done('storyboard')];
    const manual: TaskEvent = { type: 'AutonomyChanged', data: { level: 'manual', by: 'u1' } };
    expect(cardFor([...ready, manual])).toBeUndefined();
    const API_ITEM = '00000000-0000-4000-8000-0000000000a9';
    const integration: TaskEvent[] = [
      {
        type: 'MessageDeliveredToInbox',
        data: { itemId: API_ITEM, messageId: API_ITEM, text: 'render it', language: 'en', channel: 'api' },
      },
      { type: 'InboxItemsClaimed', data: { turnId: TURN, step: 1, itemIds: [API_ITEM] } },
    ];
    expect(cardFor([...ready, ...integration])).toBeUndefined();
    expect(budgetCard(task(ready), TURN, undefined)).toBeUndefined();
    expect(cardFor(ready, { quotePlan: () => undefined })).toBeUndefined();
  });

  it('a plan without paid outputs never asks for a budget', () => {
    const plain: TaskEvent = {
      type: 'ChecklistPlanned',
      data: { items: [{ itemId: 'outline', title: 'Outline', dependsOn: [] }] },
    };
    expect(cardFor([...created, plain])).toBeUndefined();
  });
});
