import { fold, planBudgetIdForCard, taskDecider, type TaskEvent } from '@lomo/domain';
import {
  accountHistory,
  budgetOf,
  foldAccount,
  foldJob,
  genIds,
  issueQuoteOf,
  jobHistory,
  planBudgetOf,
  requestOf,
  T0,
} from '../testing';
import type { AccountCommand } from '../account/account-commands';
import type { RequestedJob } from '../job/job-state';
import { DEFAULT_GENERATION_TIMINGS } from './generation-timings';
import { approvalCheckpointIdFor } from './generation-service';
import { orderHash, paymentAuthority } from './payment-authority';
import { planJob } from './plan-job';

// given(the task, the account, the job).when(the service plans the job).then(what it does next):
// the person's decisions, recorded on the task before anything consumes them, decide how a paid
// call is paid (DESIGN.md §5; article §8.3-8.4).

const request = requestOf({ amountMinor: 400 });
const job = foldJob(jobHistory(request)) as RequestedJob;
const checkpointId = approvalCheckpointIdFor(job.callId);
const ORIGIN = '7d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e';
const API_ITEM = '8d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e';

const created: TaskEvent[] = [
  {
    type: 'TaskCreated',
    data: { taskId: genIds.task, kind: 'persistent', goal: 'Three clips', language: 'en', originMessageId: ORIGIN },
  },
  { type: 'MessageDeliveredToInbox', data: { itemId: ORIGIN, messageId: ORIGIN, text: 'clips', language: 'en' } },
  { type: 'TurnOpened', data: { turnId: genIds.turn, reason: 'message' } },
];
const card = (extra: Record<string, unknown> = {}): TaskEvent => ({
  type: 'CheckpointOpened',
  data: {
    checkpointId,
    turnId: genIds.turn,
    kind: 'approval',
    callId: job.callId,
    question: 'Generate?',
    argumentsHash: orderHash(job),
    callQuote: { quoteId: job.quote.quoteId, amountMinor: 400, currency: 'USD' },
    ...extra,
  },
});
const resolved = (decision: 'approve' | 'reject', recordedBy: 'user' | 'agent' = 'user'): TaskEvent => ({
  type: 'CheckpointResolved',
  data: { checkpointId, decision, callId: job.callId, resolvedBy: 'u1' },
  recordedBy: recordedBy === 'user' ? { kind: 'user', userId: 'u1' } : { kind: 'agent' },
});

function plan(task: TaskEvent[], account: AccountCommand[], asked = false) {
  const state = asked
    ? { ...job, approvalAsked: { quoteId: job.quote.quoteId, checkpointId, refusal: 'X', askedAt: T0 } }
    : job;
  const authority = paymentAuthority(fold(taskDecider, task), job.callId, checkpointId);
  return planJob(
    state,
    foldAccount(accountHistory(issueQuoteOf(request), ...account)),
    Date.parse(T0),
    { submitting: false, sendsCallbacks: true },
    DEFAULT_GENERATION_TIMINGS,
    authority,
  );
}

describe('planning a paid job from what the task says', () => {
  it('an assisted task reserves within its plan, an autonomous one within its plan or the standing limits; a manual one, or one an integration directed, per call', () => {
    expect(plan(created, [])).toEqual({ kind: 'reserve', mode: 'within_plan' });
    const autonomous: TaskEvent = { type: 'AutonomyChanged', data: { level: 'autonomous', by: 'u1' } };
    expect(plan([...created, autonomous], [])).toEqual({ kind: 'reserve', mode: 'plan_or_limits' });
    const manual: TaskEvent = { type: 'AutonomyChanged', data: { level: 'manual', by: 'u1' } };
    expect(plan([...created, manual], [])).toEqual({ kind: 'reserve', mode: 'per_call' });
    const integration: TaskEvent[] = [
      {
        type: 'MessageDeliveredToInbox',
        data: { itemId: API_ITEM, messageId: API_ITEM, text: 'go', language: 'en', channel: 'api' },
      },
      { type: 'InboxItemsClaimed', data: { turnId: genIds.turn, step: 1, itemIds: [API_ITEM] } },
    ];
    expect(plan([...created, ...integration], [])).toEqual({ kind: 'reserve', mode: 'per_call' });
  });

  it('a task that is not there (or of another workspace) pays per call: fail closed', () => {
    expect(plan([], [])).toEqual({ kind: 'reserve', mode: 'per_call' });
  });

  it('the plan budgets the person approved on the task are put on the account first', () => {
    const approved: TaskEvent = {
      type: 'PlanBudgetApproved',
      data: { budgetId: genIds.planBudget, amountMinor: 1200, currency: 'USD', approvedBy: 'u1' },
    };
    expect(plan([...created, approved], [])).toMatchObject({
      kind: 'recordPlanBudgets',
      budgets: [{ budgetId: genIds.planBudget, amountMinor: 1200 }],
    });
    expect(plan([...created, approved], [planBudgetOf(1200)])).toEqual({ kind: 'reserve', mode: 'within_plan' });
  });

  it('an asked job waits for the person’s decision on its card', () => {
    expect(plan([...created, card()], [], true)).toEqual({ kind: 'awaitApproval' });
  });

  it('the person’s approval of the card approves the quote, with a budget for the job when the budgets cannot hold it', () => {
    expect(plan([...created, card(), resolved('approve')], [], true)).toMatchObject({
      kind: 'approveFromCard',
      card: { state: 'approved', checkpointId, resolvedBy: 'u1' },
      extendBudgetMinor: 400,
    });
    expect(plan([...created, card(), resolved('approve')], [budgetOf(1000)], true)).toMatchObject({
      kind: 'approveFromCard',
      extendBudgetMinor: 0,
    });
    expect(planBudgetIdForCard(checkpointId)).not.toBe(genIds.planBudget);
  });

  it('an agent’s own “approval” of the card is nothing: the job keeps waiting', () => {
    expect(plan([...created, card(), resolved('approve', 'agent')], [], true)).toEqual({ kind: 'awaitApproval' });
  });

  it('a rejected card declines the job', () => {
    expect(plan([...created, card(), resolved('reject')], [], true)).toMatchObject({ kind: 'decline' });
  });

  it('an approval whose card showed another order or another price refuses rather than runs', () => {
    const otherOrder = card({ argumentsHash: 'c'.repeat(64) });
    expect(plan([...created, otherOrder, resolved('approve')], [], true)).toMatchObject({
      kind: 'decline',
      message: expect.stringContaining('not the order this job holds'),
    });
    const otherPrice = card({ callQuote: { quoteId: job.quote.quoteId, amountMinor: 300, currency: 'USD' } });
    expect(plan([...created, otherPrice, resolved('approve')], [], true)).toMatchObject({
      kind: 'decline',
      message: expect.stringContaining('it approved 300 USD'),
    });
  });

  it('once the quote is approved, the job reserves (the approval stands in for the limits and the plan)', () => {
    const approved: AccountCommand = {
      type: 'ApproveQuote',
      quoteId: job.quote.quoteId,
      approvedBy: 'u1',
      by: { kind: 'user', userId: 'u1' },
      at: T0,
    };
    expect(plan([...created, card(), resolved('approve')], [budgetOf(1000), approved], true)).toEqual({
      kind: 'reserve',
      mode: 'within_plan',
    });
  });

  it('the card’s hash is the order’s: the same order in another key order hashes the same', () => {
    const reordered = {
      ...job,
      params: { ...job.params, options: Object.fromEntries(Object.entries(job.params.options).reverse()) },
    };
    expect(orderHash(reordered)).toBe(orderHash(job));
    expect(orderHash({ ...job, params: { ...job.params, prompt: `${job.params.prompt}!` } })).not.toBe(orderHash(job));
  });
});
