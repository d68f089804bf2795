import { assertNever } from '@lomo/domain';
import type { AccountEvent } from './account-events';
import { totalsOf } from './account-guards';
import { dayKey, planKey, type AccountState, type CurrencyTotals, type JobLedger } from './account-state';

function withTotals(
  state: AccountState,
  currency: string,
  change: (t: CurrencyTotals) => Partial<CurrencyTotals>,
): AccountState['totals'] {
  const before = totalsOf(state, currency);
  return { ...state.totals, [currency]: { ...before, ...change(before) } };
}

/**
 * Money not approved call by call (auto- or plan-approved) counts against its day while it is
 * held or spent; a release or a refund gives it back.
 */
function withDayUse(state: AccountState, ledger: JobLedger, delta: number): AccountState['autoApprovedByDay'] {
  if (ledger.authorization === 'quote_approved') return state.autoApprovedByDay;
  const key = dayKey(ledger.currency, ledger.day);
  return { ...state.autoApprovedByDay, [key]: (state.autoApprovedByDay[key] ?? 0) + delta };
}

/** Plan-approved money counts against its task's plan while it is held or spent. */
function withPlanUse(state: AccountState, ledger: JobLedger, delta: number): AccountState['plans'] {
  if (ledger.authorization !== 'plan_approved') return state.plans;
  const taskId = state.quotes[ledger.quoteId]?.taskId;
  if (taskId === undefined) return state.plans;
  const key = planKey(taskId, ledger.currency);
  const plan = state.plans[key] ?? { budgetMinor: 0, heldMinor: 0 };
  return { ...state.plans, [key]: { ...plan, heldMinor: plan.heldMinor + delta } };
}

const recorded = (state: AccountState, entryId: string): AccountState['entryIds'] => ({
  ...state.entryIds,
  [entryId]: true,
});

/**
 * Folds one event. Ledger entries apply once (by entry id) and only as the next step of their
 * job's ledger, so a duplicate appended by a stale writer changes nothing. An approval, a budget
 * or limits the agent recorded itself authorize nothing (libs/domain/src/task/task-evolve.ts).
 */
export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'QuoteIssued': {
      const { quote, jobId, taskId, callId, issuedAt } = event.data;
      if (state.quotes[quote.quoteId] !== undefined || state.quoteOfJob[jobId] !== undefined) return state;
      return {
        ...state,
        quotes: { ...state.quotes, [quote.quoteId]: { quote, jobId, taskId, callId, issuedAt, approval: null } },
        quoteOfJob: { ...state.quoteOfJob, [jobId]: quote.quoteId },
      };
    }
    case 'QuoteApproved': {
      const record = state.quotes[event.data.quoteId];
      if (event.recordedBy?.kind === 'agent' || record === undefined || record.approval !== null) return state;
      const { approvedBy, approvedAt, checkpointId } = event.data;
      const approval = { approvedBy, approvedAt, checkpointId: checkpointId ?? null };
      return { ...state, quotes: { ...state.quotes, [record.quote.quoteId]: { ...record, approval } } };
    }
    case 'BudgetApproved': {
      const { budgetId, taskId, jobId, checkpointId, amountMinor, currency, approvedBy, approvedAt } = event.data;
      if (event.recordedBy?.kind === 'agent' || state.budgets[budgetId] !== undefined) return state;
      const budget = {
        budgetId,
        taskId: taskId ?? null,
        jobId: jobId ?? null,
        checkpointId: checkpointId ?? null,
        amountMinor,
        currency,
        approvedBy,
        approvedAt,
      };
      // A task's budget without a job is its plan's; a job's budget only adds to the workspace's.
      const plans =
        taskId === undefined || jobId !== undefined
          ? state.plans
          : (() => {
              const key = planKey(taskId, currency);
              const plan = state.plans[key] ?? { budgetMinor: 0, heldMinor: 0 };
              return { ...state.plans, [key]: { ...plan, budgetMinor: plan.budgetMinor + amountMinor } };
            })();
      return {
        ...state,
        budgets: { ...state.budgets, [budgetId]: budget },
        totals: withTotals(state, currency, (t) => ({ budgetMinor: t.budgetMinor + amountMinor })),
        plans,
      };
    }
    case 'LimitsSet':
      if (event.recordedBy?.kind === 'agent') return state;
      return { ...state, limits: { ...event.data } };
    case 'FundsReserved': {
      const d = event.data;
      if (state.entryIds[d.entryId] || state.jobs[d.jobId] !== undefined) return state;
      const ledger: JobLedger = {
        status: 'reserved',
        jobId: d.jobId,
        quoteId: d.quoteId,
        amountMinor: d.amountMinor,
        currency: d.currency,
        authorization: d.authorization,
        day: d.day,
        reservedAt: d.reservedAt,
        expiresAt: d.expiresAt,
      };
      return {
        ...state,
        jobs: { ...state.jobs, [d.jobId]: ledger },
        entryIds: recorded(state, d.entryId),
        totals: withTotals(state, d.currency, (t) => ({ reservedMinor: t.reservedMinor + d.amountMinor })),
        autoApprovedByDay: withDayUse(state, ledger, d.amountMinor),
        plans: withPlanUse(state, ledger, d.amountMinor),
      };
    }
    case 'ReservationReleased': {
      const d = event.data;
      const ledger = state.jobs[d.jobId];
      if (state.entryIds[d.entryId] || ledger?.status !== 'reserved') return state;
      return {
        ...state,
        jobs: { ...state.jobs, [d.jobId]: { ...ledger, status: 'released', releasedAt: d.releasedAt } },
        entryIds: recorded(state, d.entryId),
        totals: withTotals(state, ledger.currency, (t) => ({
          reservedMinor: t.reservedMinor - ledger.amountMinor,
          releasedMinor: t.releasedMinor + ledger.amountMinor,
        })),
        autoApprovedByDay: withDayUse(state, ledger, -ledger.amountMinor),
        plans: withPlanUse(state, ledger, -ledger.amountMinor),
      };
    }
    case 'JobCharged': {
      const d = event.data;
      const ledger = state.jobs[d.jobId];
      if (state.entryIds[d.entryId] || ledger?.status !== 'reserved') return state;
      return {
        ...state,
        jobs: { ...state.jobs, [d.jobId]: { ...ledger, status: 'charged', chargedAt: d.chargedAt } },
        entryIds: recorded(state, d.entryId),
        totals: withTotals(state, ledger.currency, (t) => ({
          reservedMinor: t.reservedMinor - ledger.amountMinor,
          chargedMinor: t.chargedMinor + ledger.amountMinor,
        })),
      };
    }
    case 'JobRefunded': {
      const d = event.data;
      const ledger = state.jobs[d.jobId];
      if (state.entryIds[d.entryId] || ledger?.status !== 'charged') return state;
      return {
        ...state,
        jobs: {
          ...state.jobs,
          [d.jobId]: { ...ledger, status: 'refunded', refundedAt: d.refundedAt, reason: d.reason },
        },
        entryIds: recorded(state, d.entryId),
        totals: withTotals(state, ledger.currency, (t) => ({ refundedMinor: t.refundedMinor + ledger.amountMinor })),
        autoApprovedByDay: withDayUse(state, ledger, -ledger.amountMinor),
        plans: withPlanUse(state, ledger, -ledger.amountMinor),
      };
    }
    default:
      return assertNever(event, 'account event');
  }
}
