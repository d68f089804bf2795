import { deciderSpec } from '@lomo/testing';
import {
  accountHistory,
  at,
  budgetOf,
  callOf,
  foldAccount,
  genIds,
  issueQuoteOf,
  jobOf,
  limitsOf,
  person,
  planBudgetOf,
  requestOf,
} from '../testing';
import type { AccountCommand, PaymentMode, ReserveFunds } from './account-commands';
import { accountDecider } from './account-decider';
import type { AccountEvent } from './account-events';
import { ledgerEntryId } from './account-ids';
import { planKey } from './account-state';

// Article §8.4's budget dimension on the account: a task's plan budget lets its calls reserve
// without cards of their own (`plan_approved`), going beyond it asks again, money not approved
// call by call counts against the daily limit, and a task that confirms every paid call
// (`per_call`: autonomy manual, or an integration directed it) reserves only an approved quote.

const { given } = deciderSpec(accountDecider);

const requestN = (n: number, amountMinor = 400) => requestOf({ callId: callOf(1, n), amountMinor });
const reserve = (n: number, mode: PaymentMode = 'within_plan', seconds = 0): ReserveFunds => ({
  type: 'ReserveFunds',
  jobId: jobOf(callOf(1, n)),
  quoteId: requestN(n).quote.quoteId,
  at: at(seconds),
  expiresAt: at(seconds + 600),
  mode,
});
const quoted = (...ns: number[]): AccountCommand[] => ns.map((n) => issueQuoteOf(requestN(n)));
const approve = (n: number): AccountCommand => ({
  type: 'ApproveQuote',
  quoteId: requestN(n).quote.quoteId,
  approvedBy: 'u1',
  by: person,
  at: at(),
});
const reservedAs = (n: number, authorization: string): AccountEvent => ({
  type: 'FundsReserved',
  data: {
    entryId: ledgerEntryId(jobOf(callOf(1, n)), 'reservation'),
    jobId: jobOf(callOf(1, n)),
    quoteId: requestN(n).quote.quoteId,
    amountMinor: 400,
    currency: 'USD',
    authorization: authorization as 'plan_approved',
    day: '2026-11-30',
    reservedAt: at(),
    expiresAt: at(600),
  },
});

describe('account: a task plan budget, the daily limit and per-call confirmation', () => {
  it('a call within the approved plan budget reserves as plan_approved, with no approval and no limits set', () => {
    given(accountHistory(planBudgetOf(1200), ...quoted(0)))
      .when(reserve(0))
      .then([reservedAs(0, 'plan_approved')]);
  });

  it('spending beyond the plan budget asks again (PLAN_BUDGET_EXCEEDED), even when the auto-approve limits would allow it', () => {
    const commands: AccountCommand[] = [
      budgetOf(5000),
      limitsOf(1000, 5000),
      planBudgetOf(800),
      ...quoted(0, 1, 2),
      reserve(0),
      reserve(1),
    ];
    given(accountHistory(...commands))
      .when(reserve(2))
      .thenThrows('PAYMENT_PLAN_BUDGET_EXCEEDED');
    // The person's approval of that quote lets it go on, from the workspace's budgets.
    given(accountHistory(...commands, approve(2)))
      .when(reserve(2))
      .then([reservedAs(2, 'quote_approved')]);
  });

  it('an autonomous task beyond its plan goes ahead within the standing auto-approve limits, and asks beyond both', () => {
    const commands: AccountCommand[] = [budgetOf(5000), limitsOf(400, 1200), planBudgetOf(800), ...quoted(0, 1, 2)];
    given(accountHistory(...commands, reserve(0, 'plan_or_limits'), reserve(1, 'plan_or_limits')))
      .when(reserve(2, 'plan_or_limits'))
      .then([reservedAs(2, 'auto_approved')]);
    // Assisted asks for the same call: the plan is where its approval ends.
    given(accountHistory(...commands, reserve(0), reserve(1)))
      .when(reserve(2))
      .thenThrows('PAYMENT_PLAN_BUDGET_EXCEEDED');
    // Beyond the per-call limit too: autonomous asks as well.
    given(
      accountHistory(
        budgetOf(5000),
        limitsOf(300, 1200),
        planBudgetOf(800),
        ...quoted(0, 1, 2),
        reserve(0),
        reserve(1),
      ),
    )
      .when(reserve(2, 'plan_or_limits'))
      .thenThrows('PAYMENT_PLAN_BUDGET_EXCEEDED');
  });

  it('plan-approved money counts against the daily limit when limits are set, and the limit stops the plan mid-way', () => {
    const history = accountHistory(planBudgetOf(1200), limitsOf(0, 800), ...quoted(0, 1, 2), reserve(0), reserve(1));
    expect(foldAccount(history).autoApprovedByDay['USD/2026-11-30']).toBe(800);
    given(history).when(reserve(2)).thenThrows('PAYMENT_DAILY_LIMIT_EXCEEDED');
  });

  it('a per-call task reserves nothing without the quote’s approval, whatever the plan budget and limits say', () => {
    const commands: AccountCommand[] = [budgetOf(5000), limitsOf(1000, 5000), planBudgetOf(1200), ...quoted(0)];
    given(accountHistory(...commands))
      .when(reserve(0, 'per_call'))
      .thenThrows('PAYMENT_CALL_CONFIRMATION_REQUIRED');
    given(accountHistory(...commands, approve(0)))
      .when(reserve(0, 'per_call'))
      .then([reservedAs(0, 'quote_approved')]);
  });

  it('a released or refunded plan-approved job gives its money back to the plan', () => {
    const state = foldAccount(
      accountHistory(
        planBudgetOf(800),
        ...quoted(0, 1),
        reserve(0),
        reserve(1),
        { type: 'ReleaseReservation', jobId: jobOf(callOf(1, 0)), reason: 'job_failed', at: at(5) },
        { type: 'ChargeJob', jobId: jobOf(callOf(1, 1)), at: at(6) },
        { type: 'RefundJob', jobId: jobOf(callOf(1, 1)), reason: 'upstream_failed', at: at(7) },
      ),
    );
    expect(state.plans[planKey(genIds.task, 'USD')]).toEqual({ budgetMinor: 800, heldMinor: 0 });
  });

  it('a budget a card approved for one job adds to the workspace’s budgets, never to the plan’s', () => {
    const jobBudget: AccountCommand = {
      type: 'ApproveBudget',
      budgetId: genIds.budget2,
      taskId: genIds.task,
      jobId: jobOf(callOf(1, 0)),
      checkpointId: genIds.checkpoint,
      amountMinor: 400,
      currency: 'USD',
      approvedBy: 'u1',
      by: person,
      at: at(),
    };
    const state = foldAccount(accountHistory(jobBudget));
    expect(state.totals.USD?.budgetMinor).toBe(400);
    expect(state.plans[planKey(genIds.task, 'USD')]).toBeUndefined();
    // Without a plan budget or limits, the job still needs its quote approved.
    given(accountHistory(jobBudget, ...quoted(0)))
      .when(reserve(0))
      .thenThrows('PAYMENT_QUOTE_NOT_APPROVED');
  });

  it('a job budget without its task is refused, and an agent’s plan budget authorizes nothing', () => {
    given([])
      .when({ ...planBudgetOf(400), taskId: undefined, jobId: jobOf() } as AccountCommand)
      .thenThrows('ACCOUNT_INVALID_COMMAND');
    given([])
      .when({ ...planBudgetOf(400), by: { kind: 'agent' } })
      .thenThrows('ACCOUNT_APPROVAL_NOT_BY_PERSON');
  });
});
