import { availableOf, spentOf, totalsOf } from './account-guards';
import {
  DEFAULT_TIME_ZONE,
  dayKey,
  type AccountState,
  type BudgetRecord,
  type JobLedger,
  type Limits,
} from './account-state';
import { dayInTimeZone } from './workspace-day';

// Pure reads for the API's account slice: everything is folded from the account stream, so a
// read model built from the same events gives the same figures.

/** The workspace's calendar day of an instant, in the time zone its limits name (UTC without limits). */
export const workspaceDayOf = (state: AccountState, at: string | Date): string =>
  dayInTimeZone(at, state.limits?.timeZone ?? DEFAULT_TIME_ZONE);

/** Auto-approved money of one day still held or spent (releases and refunds give it back). */
export const dailyAutoApprovedUse = (state: AccountState, currency: string, day: string): number =>
  state.autoApprovedByDay[dayKey(currency, day)] ?? 0;

/** The job's ledger, or null before anything was reserved for it. */
export const ledgerOfJob = (state: AccountState, jobId: string): JobLedger | null => state.jobs[jobId] ?? null;

/** Whether money is held for the job right now: the only state in which it may be submitted. */
export const holdsReservation = (state: AccountState, jobId: string): boolean =>
  state.jobs[jobId]?.status === 'reserved';

export interface CurrencySummary {
  currency: string;
  approvedBudgetMinor: number;
  reservedMinor: number;
  chargedMinor: number;
  refundedMinor: number;
  /** Charged minus refunded. */
  spentMinor: number;
  releasedMinor: number;
  /** Approved budgets minus reserved and spent. */
  availableMinor: number;
}

export interface AccountSummary {
  /** One row per currency seen, sorted by code. */
  currencies: CurrencySummary[];
  budgets: BudgetRecord[];
  limits: Limits | null;
  /** The day asked about, with the auto-approve use of the limits' currency; null without limits. */
  daily: { day: string; currency: string; usedMinor: number; limitMinor: number; remainingMinor: number } | null;
  /** Quotes nobody approved that hold no reservation: what checkpoints are waiting on. */
  pendingQuoteIds: string[];
}

/** The account as the API shows it, for a given workspace day (see workspaceDayOf). */
export function accountSummary(state: AccountState, day: string): AccountSummary {
  const currencies = Object.keys(state.totals)
    .sort()
    .map((currency) => {
      const t = totalsOf(state, currency);
      return {
        currency,
        approvedBudgetMinor: t.budgetMinor,
        reservedMinor: t.reservedMinor,
        chargedMinor: t.chargedMinor,
        refundedMinor: t.refundedMinor,
        spentMinor: spentOf(t),
        releasedMinor: t.releasedMinor,
        availableMinor: availableOf(t),
      };
    });
  const limits = state.limits;
  const daily =
    limits === null
      ? null
      : (() => {
          const usedMinor = dailyAutoApprovedUse(state, limits.currency, day);
          const limitMinor = limits.dailyAutoApproveMinor;
          return {
            day,
            currency: limits.currency,
            usedMinor,
            limitMinor,
            remainingMinor: Math.max(0, limitMinor - usedMinor),
          };
        })();
  const pendingQuoteIds = Object.values(state.quotes)
    .filter((q) => q.approval === null && state.jobs[q.jobId] === undefined)
    .map((q) => q.quote.quoteId)
    .sort();
  const budgets = Object.values(state.budgets).sort((a, b) => a.approvedAt.localeCompare(b.approvedAt));
  return { currencies, budgets, limits, daily, pendingQuoteIds };
}
