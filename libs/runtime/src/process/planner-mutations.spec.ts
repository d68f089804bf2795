import type { TestMutation } from '@lomo/contracts';
import type { TaskEvent, TurnEvent } from '@lomo/domain';
import type { PaidWork, PlanQuoter } from './plan-budget';
import { planTurn } from './plan-turn';
import { created, ITEM, leased, started, step, TURN, viewOf } from './plan-turn.fixtures';

// The drills' planner mutations (libs/platform/src/test-control/README.md): with the switch off
// the close of a completed turn is what production decides; with it on, one safeguard is gone.

const plan = (items: Array<{ itemId: string; dependsOn?: string[]; needsConfirmation?: boolean }>): TaskEvent => ({
  type: 'ChecklistPlanned',
  data: {
    items: items.map((i) => ({
      itemId: i.itemId,
      title: i.itemId,
      dependsOn: i.dependsOn ?? [],
      ...(i.needsConfirmation ? { needsConfirmation: true } : {}),
    })),
  },
});
const done = (itemId: string): TaskEvent => ({ type: 'ChecklistItemChanged', data: { itemId, status: 'done' } });
const REVIEW = '00000000-0000-4000-8000-0000000000cd';
const approvedReviewOf = (itemId: string): TaskEvent[] => [
  { type: 'CheckpointOpened', data: { checkpointId: REVIEW, turnId: TURN, kind: 'review', itemId, question: 'Ok?' } },
  {
    type: 'CheckpointResolved',
    data: { checkpointId: REVIEW, decision: 'approve', resolvedBy: 'u1' },
    recordedBy: { kind: 'user', userId: 'u1' },
  },
];
/** The turn talked and ended: the model "stopped" without asking anything. */
const completedTurn: TurnEvent[] = [
  ...started,
  leased(),
  step(1, [], [ITEM]),
  { type: 'TurnCompleted', data: { steps: 1, summary: 'done for now' } },
];

/** The events of the close: the cards it opens and the continuation it records. */
function closeOf(task: TaskEvent[], ...mutations: TestMutation[]) {
  const out = planTurn(viewOf(task, completedTurn, { mutation: (name) => mutations.includes(name) }));
  if (out.kind !== 'append') throw new Error(`expected the close, got ${out.kind}`);
  const events = out.events as Array<{ type: string; data: Record<string, unknown> }>;
  return {
    cards: events.filter((e) => e.type === 'CheckpointOpened').map((e) => ({ kind: e.data.kind, item: e.data.itemId })),
    continuation: events.find((e) => e.type === 'ContinuationDecided')?.data,
  };
}

describe('no_fallback_card', () => {
  const twoItems = [...created, plan([{ itemId: 'script' }, { itemId: 'board', dependsOn: ['script'] }])];
  const reviewed = [
    ...created,
    plan([
      { itemId: 'board', needsConfirmation: true },
      { itemId: 'shots', dependsOn: ['board'] },
    ]),
    done('board'),
  ];

  it('off: the runtime goes on by itself when the model stops with items ready', () => {
    expect(closeOf(twoItems).continuation).toMatchObject({ decision: 'continue', reason: 'pending_items' });
    expect(closeOf(twoItems, 'no_settled_check').continuation).toMatchObject({ decision: 'continue' });
  });

  it('on: it waits for the person instead (who has to say "continue")', () => {
    expect(closeOf(twoItems, 'no_fallback_card').continuation).toMatchObject({
      decision: 'await_person',
      reason: 'pending_items',
    });
  });

  it('off: a done stage the person reviews gets the fallback review card; on: no card', () => {
    expect(closeOf(reviewed).cards).toEqual([{ kind: 'review', item: 'board' }]);
    const mutated = closeOf(reviewed, 'no_fallback_card');
    expect(mutated.cards).toEqual([]);
    expect(mutated.continuation).toMatchObject({ decision: 'await_person', reason: 'review_needed' });
  });
});

describe('no_settled_check', () => {
  const approved = [
    ...created,
    plan([
      { itemId: 'board', needsConfirmation: true },
      { itemId: 'shots', dependsOn: ['board'] },
    ]),
    done('board'),
    ...approvedReviewOf('board'),
  ];

  it('off: an approved stage is settled, what depends on it runs', () => {
    const close = closeOf(approved);
    expect(close.cards).toEqual([]);
    expect(close.continuation).toMatchObject({ decision: 'continue', reason: 'pending_items' });
  });

  it('on: the approved stage is asked about again, once', () => {
    const close = closeOf(approved, 'no_settled_check');
    expect(close.cards).toEqual([{ kind: 'review', item: 'board' }]);
    expect(close.continuation).toMatchObject({ decision: 'await_person', reason: 'review_needed' });
    // Approved a second time, it is settled even with the switch on: one needless card per stage.
    const again = '00000000-0000-4000-8000-0000000000ce';
    const twice: TaskEvent[] = [
      ...approved,
      {
        type: 'CheckpointOpened',
        data: { checkpointId: again, turnId: TURN, kind: 'review', itemId: 'board', question: 'Ok?' },
      },
      {
        type: 'CheckpointResolved',
        data: { checkpointId: again, decision: 'approve', resolvedBy: 'u1' },
        recordedBy: { kind: 'user', userId: 'u1' },
      },
    ];
    expect(closeOf(twice, 'no_settled_check').cards).toEqual([]);
  });
});

describe('no_budget_check (the runtime’s budget card)', () => {
  const quoter: PlanQuoter = {
    quotePlan: (work: readonly PaidWork[]) => ({
      currency: 'USD',
      lines: work.map((w) => ({ ...w, amountMinor: 40 * w.count })),
    }),
  };
  const paidNext: TaskEvent[] = [
    ...created,
    {
      type: 'ChecklistPlanned',
      data: {
        items: [
          { itemId: 'script', title: 'Script', dependsOn: [], output: { kind: 'artifact' } },
          {
            itemId: 'shots',
            title: 'Shots',
            dependsOn: ['script'],
            output: { kind: 'media', media: 'video', count: 3 },
          },
        ],
      },
    },
    done('script'),
  ];
  const close = (...mutations: TestMutation[]) => {
    const out = planTurn(
      viewOf(paidNext, completedTurn, { planQuoter: quoter, mutation: (name) => mutations.includes(name) }),
    );
    if (out.kind !== 'append') throw new Error(`expected the close, got ${out.kind}`);
    const events = out.events as Array<{ type: string; data: Record<string, unknown> }>;
    return {
      cards: events.filter((e) => e.type === 'CheckpointOpened').map((e) => e.data.kind),
      continuation: events.find((e) => e.type === 'ContinuationDecided')?.data,
    };
  };

  it('off: a paid stage next without the plan’s budget opens a budget card and waits', () => {
    expect(close()).toMatchObject({ cards: ['budget'], continuation: { reason: 'budget_needed' } });
  });

  it('on: no card, the runtime goes on to the paid stage', () => {
    expect(close('no_budget_check')).toMatchObject({ cards: [], continuation: { decision: 'continue' } });
  });
});
