import { assertNever } from '@lomo/domain';
import type { ChargeJob, RefundJob, ReleaseReservation, ReserveFunds } from './account-commands';
import { AccountErrors, PaymentNotAuthorizedError, PaymentRefusals } from './account-errors';
import type { AccountEvent, ReservationAuthorization } from './account-events';
import { availableOf, instant, invalid, refuse, spentOf, totalsOf } from './account-guards';
import { ledgerEntryId } from './account-ids';
import { DEFAULT_TIME_ZONE, dayKey, planKey, type AccountState } from './account-state';
import type { GenerationQuoteData } from '../job/job-events';
import { dayInTimeZone } from './workspace-day';

// The ledger of one job: reserved → released, or reserved → charged → refunded, one entry of each
// kind at most (ids from (jobId, kind), ./account-ids.ts). Every command against an entry that
// exists already decides nothing, so a repeated write is a no-op and, for every job,
// charged − refunded is 0 or the quoted price.

/**
 * Holds the quoted amount before the submit. Refused, with nothing appended, unless it fits the
 * approved budgets (reserved + spent + amount ≤ budgets) and one of these authorizes it:
 *
 * - a person approved the quote (`quote_approved`): it stands in for the limits and the plan;
 * - `per_call` mode (the task asks before every paid step, or an integration directed it): nothing
 *   else does, CALL_CONFIRMATION_REQUIRED;
 * - the task has a plan budget (`plan_approved`): the plan's held and spent money plus this quote
 *   stays within it, and, when limits are set, within the daily limit; beyond it
 *   PLAN_BUDGET_EXCEEDED (the scope grew, the person is asked again), unless the task is autonomous
 *   (`plan_or_limits`) and the call fits the auto-approve limits (`auto_approved`);
 * - the auto-approve limits (`auto_approved`): at most the per-call limit, and with the other money
 *   of the workspace's day (in its time zone, at the command's time) at most the daily limit.
 *
 * Money not approved call by call counts against the daily limit. The refusal carries the quote so
 * the caller can ask the person at a checkpoint (DESIGN.md §5). A person's approval of one quote
 * stands in for the limits and the plan, never for the budget.
 */
export function reserveFunds(command: ReserveFunds, state: AccountState): AccountEvent[] {
  if (state.jobs[command.jobId] !== undefined) return [];
  const record = state.quotes[command.quoteId];
  if (record === undefined)
    return refuse(AccountErrors.QUOTE_NOT_FOUND, `No quote ${command.quoteId}`, { quoteId: command.quoteId });
  if (record.jobId !== command.jobId)
    return refuse(AccountErrors.QUOTE_MISMATCH, `Quote ${command.quoteId} is for job ${record.jobId}`, {
      quoteId: command.quoteId,
      jobId: command.jobId,
    });
  const reservedAt = instant(command.at);
  const expiresAt = instant(command.expiresAt, 'expiresAt');
  if (Date.parse(expiresAt) <= Date.parse(reservedAt)) invalid('A reservation expires after it is made');
  const { amountMinor, currency } = record.quote;
  const totals = totalsOf(state, currency);
  const quote = { ...record.quote, jobId: record.jobId, taskId: record.taskId, callId: record.callId };
  const limits = state.limits;
  const day = dayInTimeZone(reservedAt, limits?.timeZone ?? DEFAULT_TIME_ZONE);
  // What would authorize it comes first (so a plan's overrun says so), then whether the money is there.
  const unchecked = command.skipBudgetCheck === true;
  const authorization: ReservationAuthorization =
    record.approval !== null
      ? 'quote_approved'
      : unchecked
        ? 'plan_approved'
        : withoutApproval(command, state, quote, day);
  const availableMinor = availableOf(totals);
  if (amountMinor > availableMinor && !unchecked)
    throw new PaymentNotAuthorizedError(
      PaymentRefusals.BUDGET_EXCEEDED,
      `Quote ${command.quoteId} (${amountMinor} ${currency}) is more than the ${availableMinor} left of the approved budgets`,
      { quote, availableMinor, budgetMinor: totals.budgetMinor, spentMinor: spentOf(totals) },
    );
  const data = {
    entryId: ledgerEntryId(command.jobId, 'reservation'),
    jobId: command.jobId,
    quoteId: command.quoteId,
    amountMinor,
    currency,
    authorization,
    day,
    reservedAt,
    expiresAt,
  };
  return [{ type: 'FundsReserved', data }];
}

type RefusedQuote = GenerationQuoteData & { jobId: string; taskId: string; callId: string };

/** A quote no person approved: the task's plan budget, else the auto-approve limits, else refused. */
function withoutApproval(
  command: ReserveFunds,
  state: AccountState,
  quote: RefusedQuote,
  day: string,
): 'plan_approved' | 'auto_approved' {
  const { amountMinor, currency } = quote;
  if ((command.mode ?? 'within_plan') === 'per_call')
    throw new PaymentNotAuthorizedError(
      PaymentRefusals.CALL_CONFIRMATION_REQUIRED,
      `Quote ${quote.quoteId} (${amountMinor} ${currency}) needs the person's approval: every paid call of this task is confirmed on its own`,
      { quote },
    );
  const limits = state.limits && state.limits.currency === currency ? state.limits : null;
  const used = state.autoApprovedByDay[dayKey(currency, day)] ?? 0;
  const plan = state.plans[planKey(quote.taskId, currency)];
  if (plan !== undefined && plan.budgetMinor > 0) {
    if (plan.heldMinor + amountMinor <= plan.budgetMinor) {
      if (limits !== null && used + amountMinor > limits.dailyAutoApproveMinor)
        throw dailyLimit(quote, day, used, limits.dailyAutoApproveMinor);
      return 'plan_approved';
    }
    const beyondPlan = new PaymentNotAuthorizedError(
      PaymentRefusals.PLAN_BUDGET_EXCEEDED,
      `Quote ${quote.quoteId} (${amountMinor} ${currency}) goes beyond the plan's approved budget (${plan.heldMinor} of ${plan.budgetMinor} ${currency} used)`,
      { quote, planBudgetMinor: plan.budgetMinor, planUsedMinor: plan.heldMinor },
    );
    // Beyond the plan: only an autonomous task may fall back on the standing auto-approve limits.
    const withinLimits =
      limits !== null &&
      amountMinor <= limits.perCallAutoApproveMinor &&
      used + amountMinor <= limits.dailyAutoApproveMinor;
    if (command.mode !== 'plan_or_limits' || !withinLimits) throw beyondPlan;
    return 'auto_approved';
  }
  const perCall = limits?.perCallAutoApproveMinor ?? 0;
  if (limits === null || amountMinor > perCall)
    throw new PaymentNotAuthorizedError(
      PaymentRefusals.QUOTE_NOT_APPROVED,
      `Quote ${quote.quoteId} (${amountMinor} ${currency}) needs a person's approval`,
      { quote, perCallAutoApproveMinor: perCall },
    );
  if (used + amountMinor > limits.dailyAutoApproveMinor)
    throw dailyLimit(quote, day, used, limits.dailyAutoApproveMinor);
  return 'auto_approved';
}

function dailyLimit(quote: RefusedQuote, day: string, used: number, daily: number): PaymentNotAuthorizedError {
  return new PaymentNotAuthorizedError(
    PaymentRefusals.DAILY_LIMIT_EXCEEDED,
    `Quote ${quote.quoteId} without its own approval would pass the daily limit of ${day} (${used} of ${daily} ${quote.currency} used)`,
    { quote, day, usedMinor: used, dailyAutoApproveMinor: daily },
  );
}

/**
 * Only a reservation that never became a charge goes back; anything else (nothing reserved, a
 * charge, released already) decides nothing. "expired" is refused before the expiry.
 */
export function releaseReservation(command: ReleaseReservation, state: AccountState): AccountEvent[] {
  const ledger = state.jobs[command.jobId];
  if (ledger === undefined || ledger.status !== 'reserved') return [];
  const releasedAt = instant(command.at);
  if (command.reason === 'expired' && Date.parse(releasedAt) < Date.parse(ledger.expiresAt))
    return refuse(
      AccountErrors.RESERVATION_NOT_EXPIRED,
      `The reservation of job ${command.jobId} holds until ${ledger.expiresAt}`,
      {
        jobId: command.jobId,
        expiresAt: ledger.expiresAt,
      },
    );
  const data = {
    entryId: ledgerEntryId(command.jobId, 'release'),
    jobId: command.jobId,
    amountMinor: ledger.amountMinor,
    currency: ledger.currency,
    reason: command.reason,
    releasedAt,
  };
  return [{ type: 'ReservationReleased', data }];
}

/** Charged on submit, from the reservation; a second charge does nothing. */
export function chargeJob(command: ChargeJob, state: AccountState): AccountEvent[] {
  const ledger = state.jobs[command.jobId];
  if (ledger === undefined)
    throw new PaymentNotAuthorizedError(PaymentRefusals.NO_RESERVATION, `Job ${command.jobId} holds no reservation`, {
      jobId: command.jobId,
    });
  switch (ledger.status) {
    case 'reserved':
      return [
        {
          type: 'JobCharged',
          data: {
            entryId: ledgerEntryId(command.jobId, 'charge'),
            jobId: command.jobId,
            amountMinor: ledger.amountMinor,
            currency: ledger.currency,
            chargedAt: instant(command.at),
          },
        },
      ];
    case 'released':
      return refuse(AccountErrors.RESERVATION_RELEASED, `The reservation of job ${command.jobId} was released`, {
        jobId: command.jobId,
      });
    case 'charged':
    case 'refunded':
      return [];
    default:
      return assertNever(ledger, 'job ledger');
  }
}

/** Returns the whole charge once; a refund without a charge does nothing. */
export function refundJob(command: RefundJob, state: AccountState): AccountEvent[] {
  const ledger = state.jobs[command.jobId];
  if (ledger === undefined) return [];
  switch (ledger.status) {
    case 'reserved':
    case 'released':
    case 'refunded':
      return [];
    case 'charged':
      return [
        {
          type: 'JobRefunded',
          data: {
            entryId: ledgerEntryId(command.jobId, 'refund'),
            jobId: command.jobId,
            amountMinor: ledger.amountMinor,
            currency: ledger.currency,
            reason: command.reason,
            refundedAt: instant(command.at),
          },
        },
      ];
    default:
      return assertNever(ledger, 'job ledger');
  }
}
