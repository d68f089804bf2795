import type { GenerationFailureReason, GenerationQuoteData } from '../job/job-events';
import type { ReservationAuthorization } from './account-events';

export interface QuoteRecord {
  quote: GenerationQuoteData;
  jobId: string;
  taskId: string;
  callId: string;
  issuedAt: string;
  /** Set by a person's approval only. */
  approval: { approvedBy: string; approvedAt: string; checkpointId: string | null } | null;
}

export interface BudgetRecord {
  budgetId: string;
  taskId: string | null;
  /** A budget for one job (a paid call's card approved beyond the budgets): never a plan's. */
  jobId: string | null;
  checkpointId: string | null;
  amountMinor: number;
  currency: string;
  approvedBy: string;
  approvedAt: string;
}

export interface Limits {
  currency: string;
  perCallAutoApproveMinor: number;
  dailyAutoApproveMinor: number;
  timeZone: string;
  setBy: string;
  setAt: string;
}

interface LedgerBase {
  jobId: string;
  quoteId: string;
  amountMinor: number;
  currency: string;
  authorization: ReservationAuthorization;
  /** The workspace's calendar day of the reservation (what the daily limit counts against). */
  day: string;
  reservedAt: string;
  expiresAt: string;
}

/** Money held, not spent. */
export interface ReservedLedger extends LedgerBase {
  status: 'reserved';
}

/** Final: the reservation went back without a charge. */
export interface ReleasedLedger extends LedgerBase {
  status: 'released';
  releasedAt: string;
}

/** Spent. */
export interface ChargedLedger extends LedgerBase {
  status: 'charged';
  chargedAt: string;
}

/** Final: charged, then refunded whole. */
export interface RefundedLedger extends LedgerBase {
  status: 'refunded';
  chargedAt: string;
  refundedAt: string;
  reason: GenerationFailureReason;
}

/** One job's money on the ledger: reserved → released, or reserved → charged → refunded. */
export type JobLedger = ReservedLedger | ReleasedLedger | ChargedLedger | RefundedLedger;

/** Running sums per currency, kept by evolve so a decision does not walk every job. */
export interface CurrencyTotals {
  budgetMinor: number;
  reservedMinor: number;
  chargedMinor: number;
  refundedMinor: number;
  releasedMinor: number;
}

export interface AccountState {
  quotes: Readonly<Record<string, QuoteRecord>>;
  /** Quote id by job: one quote per job. */
  quoteOfJob: Readonly<Record<string, string>>;
  budgets: Readonly<Record<string, BudgetRecord>>;
  limits: Limits | null;
  jobs: Readonly<Record<string, JobLedger>>;
  /** Every ledger entry id folded so far: the same entry again is a no-op. */
  entryIds: Readonly<Record<string, true>>;
  totals: Readonly<Record<string, CurrencyTotals>>;
  /** Money not approved call by call (auto- or plan-approved) still held or spent, by `${currency}/${day}`. */
  autoApprovedByDay: Readonly<Record<string, number>>;
  /**
   * Per task plan, by `${taskId}/${currency}`: its approved plan budgets, and the plan-approved
   * money its jobs hold or spent (a release or a refund gives it back). Running sums kept by evolve.
   */
  plans: Readonly<Record<string, PlanTotals>>;
}

export interface PlanTotals {
  budgetMinor: number;
  heldMinor: number;
}

export const planKey = (taskId: string, currency: string): string => `${taskId}/${currency}`;

export const initialAccountState = (): AccountState => ({
  quotes: {},
  quoteOfJob: {},
  budgets: {},
  limits: null,
  jobs: {},
  entryIds: {},
  totals: {},
  autoApprovedByDay: {},
  plans: {},
});

export const emptyTotals = (): CurrencyTotals => ({
  budgetMinor: 0,
  reservedMinor: 0,
  chargedMinor: 0,
  refundedMinor: 0,
  releasedMinor: 0,
});

export const dayKey = (currency: string, day: string): string => `${currency}/${day}`;

/** When no limits were set: nothing is auto-approved, days are UTC days. */
export const DEFAULT_TIME_ZONE = 'UTC';
