import fc from 'fast-check';
import {
  existingTask,
  fold,
  taskDecider,
  turnDecider,
  type CompletedTurn,
  type TaskEvent,
  type TurnEvent,
} from '@lomo/domain';
import type { ToolProgress } from '@lomo/tools';
import { planContinuation, type ContinuationLimits } from './plan-continuation';
import { callOf, created, ITEM, leased, started, step, TURN } from './plan-turn.fixtures';

// given(task events, turn events).when(the turn completed).then(the decision): every branch of
// the continuation decider, and a property over random histories.

const limits: ContinuationLimits = { maxAutoTurns: 3, maxTurnsWithoutProgress: 2 };
const progressByTool: Record<string, ToolProgress> = {
  'document.write': 'artifact_version',
  'image.generate': 'job_submitted',
};
const progressOf = (tool: string): ToolProgress | undefined => progressByTool[tool];

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
const REVIEW = '00000000-0000-4000-8000-0000000000cd';
const reviewOpened = (itemId: string): TaskEvent => ({
  type: 'CheckpointOpened',
  data: { checkpointId: REVIEW, turnId: TURN, kind: 'review', itemId, question: 'Review it' },
});
const reviewResolved = (decision: 'approve' | 'adjust' | 'reject'): TaskEvent => ({
  type: 'CheckpointResolved',
  data: { checkpointId: REVIEW, decision, resolvedBy: 'u1', ...(decision === 'adjust' ? { answer: 'warmer' } : {}) },
  recordedBy: { kind: 'user', userId: 'u1' },
});
const item = (itemId: string, status: 'pending' | 'in_progress' | 'done' | 'skipped' | 'blocked'): TaskEvent => ({
  type: 'ChecklistItemChanged',
  data: { itemId, status },
});
const previous = (data: Partial<Extract<TaskEvent, { type: 'ContinuationDecided' }>['data']>): TaskEvent[] => [
  { type: 'TurnClosed', data: { turnId: '00000000-0000-4000-8000-0000000000ee', outcome: 'completed' } },
  {
    type: 'ContinuationDecided',
    data: {
      turnId: '00000000-0000-4000-8000-0000000000ee',
      decision: 'continue',
      reason: 'pending_items',
      progress: [],
      autoTurns: 1,
      turnsWithoutProgress: 0,
      itemsDone: 0,
      ...data,
    },
  },
  { type: 'TurnOpened', data: { turnId: TURN, reason: 'continuation' } },
];

const completedWith = (steps: TurnEvent[], reason: 'message' | 'continuation' = 'message'): CompletedTurn => {
  const turn = fold(turnDecider, [
    { type: 'TurnStarted', data: { ...(started[0].data as { turnId: string; taskId: string }), reason } },
    leased(),
    ...steps,
    { type: 'TurnCompleted', data: { steps: steps.length, summary: 'done for now' } },
  ]);
  if (turn.status !== 'completed') throw new Error(`the fixture turn is ${turn.status}`);
  return turn;
};
/** A step that only talks (the model "stops" after a stage). */
const talk = step(1);
const wroteDocument: TurnEvent[] = [
  step(1, [{ tool: 'document.write' }]),
  {
    type: 'ToolCallStarted',
    data: { callId: callOf(1, 0), tool: 'document.write', idempotencyKey: callOf(1, 0), attempt: 1 },
  },
  { type: 'ToolCallCompleted', data: { callId: callOf(1, 0), status: 'ok', result: { artifactId: 'a', version: 2 } } },
  step(2),
];

function given(task: TaskEvent[], budgetNeeded = false) {
  return {
    when: (turn: CompletedTurn) => ({
      then: (expected: Record<string, unknown>) =>
        expect(
          planContinuation({ task: existingTask(fold(taskDecider, task)), turn, progressOf, limits, budgetNeeded }),
        ).toMatchObject(expected),
    }),
  };
}

describe('the continuation decision after a completed turn', () => {
  it('an open checkpoint waits for the person, whatever the plan', () => {
    given([
      ...created,
      plan([{ itemId: 'script' }]),
      {
        type: 'CheckpointOpened',
        data: {
          checkpointId: '00000000-0000-4000-8000-0000000000cc',
          turnId: TURN,
          kind: 'question',
          question: 'Which?',
        },
      },
    ])
      .when(completedWith([talk]))
      .then({ decision: 'await_person', reason: 'checkpoint_open' });
  });

  it('a stage the person reviews is done and has no card: await the person, review_needed', () => {
    given([
      ...created,
      plan([
        { itemId: 'board', needsConfirmation: true },
        { itemId: 'shots', dependsOn: ['board'] },
      ]),
      item('board', 'done'),
    ])
      .when(completedWith(wroteDocument))
      .then({ decision: 'await_person', reason: 'review_needed', progress: ['artifact_version', 'item_done'] });
  });

  it('an adjusted stage done again needs a new review; what depends on it waits', () => {
    given([
      ...created,
      plan([
        { itemId: 'board', needsConfirmation: true },
        { itemId: 'shots', dependsOn: ['board'] },
      ]),
      item('board', 'done'),
      reviewOpened('board'),
      reviewResolved('adjust'),
      item('board', 'done'),
    ])
      .when(completedWith(wroteDocument))
      .then({ decision: 'await_person', reason: 'review_needed' });
  });

  it('a stage the person approved lets what depends on it run: continue', () => {
    given([
      ...created,
      plan([
        { itemId: 'board', needsConfirmation: true },
        { itemId: 'shots', dependsOn: ['board'] },
      ]),
      item('board', 'done'),
      reviewOpened('board'),
      reviewResolved('approve'),
    ])
      .when(completedWith(wroteDocument))
      .then({ decision: 'continue', reason: 'pending_items' });
  });

  it('a stage the person reviews but not yet done is no reason to wait: its work goes on', () => {
    given([...created, plan([{ itemId: 'board', needsConfirmation: true }])])
      .when(completedWith(wroteDocument))
      .then({ decision: 'continue', reason: 'pending_items' });
  });

  it('a task paused meanwhile is not continued: stop, not_running', () => {
    given([
      ...created,
      plan([{ itemId: 'script' }, { itemId: 'shots' }]),
      { type: 'TaskPaused', data: { by: { kind: 'user', userId: 'u1' } } },
    ])
      .when(completedWith(wroteDocument))
      .then({ decision: 'stop', reason: 'not_running' });
  });

  it('no checklist: the reply was the answer, the person speaks next', () => {
    given(created)
      .when(completedWith([talk]))
      .then({ decision: 'await_person', reason: 'no_plan', autoTurns: 0 });
  });

  it('every item done or skipped: finish and present', () => {
    given([
      ...created,
      plan([{ itemId: 'script' }, { itemId: 'shots' }]),
      item('script', 'done'),
      item('shots', 'skipped'),
    ])
      .when(completedWith([talk]))
      .then({ decision: 'finish', reason: 'checklist_complete', progress: ['item_done'], itemsDone: 1 });
  });

  it('items left whose dependencies are not settled, or blocked: stop, blocked', () => {
    given([
      ...created,
      plan([{ itemId: 'script' }, { itemId: 'shots', dependsOn: ['script'] }]),
      item('script', 'blocked'),
    ])
      .when(completedWith([talk]))
      .then({ decision: 'stop', reason: 'blocked' });
  });

  it('the next stage is paid and the plan’s budget does not cover it: await the person, budget_needed', () => {
    given(
      [...created, plan([{ itemId: 'script' }, { itemId: 'shots', dependsOn: ['script'] }]), item('script', 'done')],
      true,
    )
      .when(completedWith(wroteDocument))
      .then({ decision: 'await_person', reason: 'budget_needed' });
  });

  it('a review comes before the budget: review_needed, the budget card opens beside the review card', () => {
    given(
      [
        ...created,
        plan([
          { itemId: 'board', needsConfirmation: true },
          { itemId: 'shots', dependsOn: ['board'] },
        ]),
        item('board', 'done'),
      ],
      true,
    )
      .when(completedWith(wroteDocument))
      .then({ decision: 'await_person', reason: 'review_needed' });
  });

  it('items left and the model stopped talking after a stage with progress: continue', () => {
    given([
      ...created,
      plan([{ itemId: 'script' }, { itemId: 'board', dependsOn: ['script'] }]),
      item('script', 'done'),
    ])
      .when(completedWith(wroteDocument))
      .then({
        type: 'RecordContinuation',
        turnId: TURN,
        decision: 'continue',
        reason: 'pending_items',
        progress: ['artifact_version', 'item_done'],
        autoTurns: 1,
        turnsWithoutProgress: 0,
      });
  });

  it('the person’s input consumed is progress', () => {
    given([...created, plan([{ itemId: 'script' }])])
      .when(completedWith([step(1, [], [ITEM])]))
      .then({ decision: 'continue', progress: ['person_input'] });
  });

  it('a job ordered is progress; a tool call that failed is not', () => {
    const ordered: TurnEvent[] = [
      step(1, [{ tool: 'image.generate' }, { tool: 'document.write' }]),
      { type: 'ToolCallCompleted', data: { callId: callOf(1, 0), status: 'ok', result: { jobId: 'j' } } },
      {
        type: 'ToolCallCompleted',
        data: { callId: callOf(1, 1), status: 'error', error: { code: 'STALE', message: 'moved on', retriable: true } },
      },
      step(2),
    ];
    given([...created, plan([{ itemId: 'poster' }])])
      .when(completedWith(ordered))
      .then({ decision: 'continue', progress: ['job_submitted'] });
  });

  it('turns in a row without progress (only rewording the plan) stop auto-continuation', () => {
    given([...created, plan([{ itemId: 'script' }]), ...previous({ turnsWithoutProgress: 1 })])
      .when(completedWith([talk], 'continuation'))
      .then({ decision: 'stop', reason: 'no_progress', progress: [], turnsWithoutProgress: 2 });
  });

  it('one turn without progress is not yet a loop', () => {
    given([...created, plan([{ itemId: 'script' }]), ...previous({ turnsWithoutProgress: 0 })])
      .when(completedWith([talk], 'continuation'))
      .then({ decision: 'continue', turnsWithoutProgress: 1, autoTurns: 2 });
  });

  it('the runtime’s own turns in a row are bounded: stop, turn_limit', () => {
    given([...created, plan([{ itemId: 'script' }]), ...previous({ autoTurns: 3 })])
      .when(completedWith(wroteDocument, 'continuation'))
      .then({ decision: 'stop', reason: 'turn_limit', autoTurns: 3 });
  });

  it('a turn the person started begins a new run of automatic turns', () => {
    given([...created, plan([{ itemId: 'script' }]), ...previous({ autoTurns: 3 })])
      .when(completedWith([step(1, [], [ITEM])], 'message'))
      .then({ decision: 'continue', autoTurns: 1 });
  });

  it('the decision is recorded once per turn: a repeat is a no-op, another turn is refused', () => {
    const task = [
      ...created,
      plan([{ itemId: 'script' }]),
      { type: 'TurnClosed', data: { turnId: TURN, outcome: 'completed' } } as TaskEvent,
    ];
    const state = fold(taskDecider, task);
    const command = planContinuation({
      task: existingTask(state),
      turn: completedWith(wroteDocument),
      progressOf,
      limits,
    });
    const first = taskDecider.decide(command, state);
    expect(first.map((e) => e.type)).toEqual(['ContinuationDecided']);
    const after = first.reduce(taskDecider.evolve, state);
    expect(taskDecider.decide(command, after)).toEqual([]);
    expect(() => taskDecider.decide({ ...command, turnId: '00000000-0000-4000-8000-0000000000ff' }, after)).toThrow(
      /turn that just closed/,
    );
  });

  it('property: it never continues a task that has nothing ready, and never runs more automatic turns than the limit', () => {
    const statuses = ['pending', 'in_progress', 'done', 'skipped', 'blocked'] as const;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...statuses), { minLength: 0, maxLength: 5 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        fc.boolean(),
        (itemStatuses, autoTurns, withoutProgress, progressed, byContinuation) => {
          const ids = itemStatuses.map((_, i) => `item-${i}`);
          const task: TaskEvent[] = [
            ...created,
            ...(ids.length > 0 ? [plan(ids.map((itemId) => ({ itemId })))] : []),
            ...itemStatuses.flatMap((s, i) => (s === 'pending' ? [] : [item(ids[i], s)])),
            ...previous({ autoTurns, turnsWithoutProgress: withoutProgress, itemsDone: 5 }),
          ];
          const turn = completedWith(progressed ? wroteDocument : [talk], byContinuation ? 'continuation' : 'message');
          const decided = planContinuation({ task: existingTask(fold(taskDecider, task)), turn, progressOf, limits });
          const open = itemStatuses.some((s) => s === 'pending' || s === 'in_progress');
          if (decided.decision === 'continue') {
            expect(open).toBe(true);
            expect(decided.autoTurns).toBeLessThanOrEqual(limits.maxAutoTurns);
            expect(decided.turnsWithoutProgress).toBeLessThan(limits.maxTurnsWithoutProgress);
          }
          if (!open) expect(decided.decision).not.toBe('continue');
        },
      ),
    );
  });

  it('property: no sequence of events makes it continue a paused, stopped or finished task, or past a review the person has not approved', () => {
    const itemIds = ['a', 'b', 'c'];
    const eventArb: fc.Arbitrary<TaskEvent> = fc.oneof(
      fc.constantFrom<TaskEvent>(
        { type: 'TaskPaused', data: { by: { kind: 'user', userId: 'u1' } } },
        { type: 'TaskResumed', data: { by: { kind: 'user', userId: 'u1' } } },
        { type: 'TaskStopped', data: { by: { kind: 'user', userId: 'u1' } } },
        { type: 'TaskCompleted', data: {} },
        reviewResolved('approve'),
        reviewResolved('adjust'),
        reviewResolved('reject'),
        { ...reviewResolved('approve'), recordedBy: { kind: 'agent' } },
      ),
      fc.constantFrom(...itemIds).map(reviewOpened),
      fc
        .tuple(
          fc.constantFrom(...itemIds),
          fc.constantFrom('pending', 'in_progress', 'done', 'skipped', 'blocked' as const),
        )
        .map(([id, status]) => item(id, status)),
    );
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 12 }), fc.boolean(), (events, progressed) => {
        const history: TaskEvent[] = [
          ...created,
          plan([
            { itemId: 'a' },
            { itemId: 'b', dependsOn: ['a'], needsConfirmation: true },
            { itemId: 'c', dependsOn: ['b'] },
          ]),
          ...events,
        ];
        const state = fold(taskDecider, history);
        if (state.status === 'none') return;
        const decided = planContinuation({
          task: existingTask(state),
          turn: completedWith(progressed ? wroteDocument : [talk]),
          progressOf,
          limits,
        });
        if (decided.decision !== 'continue') return;
        expect(['active', 'waiting']).toContain(state.status);
        const b = state.checklist.find((i) => i.itemId === 'b')!;
        const c = state.checklist.find((i) => i.itemId === 'c')!;
        const reviewApproved =
          b.reviewCheckpointId !== null &&
          ['approve', 'choose'].includes(state.checkpoints[b.reviewCheckpointId]?.resolution?.decision ?? '');
        // c is the only item after the review: it may run only when b was approved.
        const onlyCLeft = ['a', 'b'].every((id) => {
          const i = state.checklist.find((x) => x.itemId === id)!;
          return i.status === 'done' || i.status === 'skipped';
        });
        if (onlyCLeft && b.status === 'done' && c.status !== 'done' && c.status !== 'skipped')
          expect(reviewApproved).toBe(true);
        expect(Object.values(state.checkpoints).every((cp) => cp.resolution !== null)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
