import { z } from 'zod';
import { amountMinor, currencyCode, generationFailureReason, generationQuote } from './generation';
import { callId, checkpointId, isoDateTime, taskId, userId, uuid } from '../ids';

/**
 * The `account-{workspaceId}` stream (DESIGN.md §3): the workspace's money ledger, authoritative
 * for quotes, approvals, reservations, charges, refunds and daily limits. Amounts are integer
 * minor units with a currency. Ledger entries (reservation, release, charge, refund) carry ids
 * derived from (jobId, kind), so a repeated write of the same entry is a no-op.
 *
 * Approvals (QuoteApproved, BudgetApproved, LimitsSet) name the person who gave them; one recorded
 * by the agent authorizes nothing (the rule of libs/domain/src/task/task-evolve.ts, `recordedBy`).
 */

/** A calendar day `YYYY-MM-DD` in the workspace's time zone. */
export const calendarDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

/** An IANA time zone name (validated against Intl by the decider). */
export const timeZoneName = z.string().regex(/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/, 'IANA time zone name');

/** The price of one generation job, issued before anything is reserved. */
export const QuoteIssued = z.strictObject({
  quote: generationQuote,
  jobId: uuid,
  taskId,
  callId,
  issuedAt: isoDateTime,
});

/** A person approved a quote (through the checkpoint that showed it). */
export const QuoteApproved = z.strictObject({
  quoteId: uuid,
  approvedBy: userId,
  checkpointId: checkpointId.optional(),
  approvedAt: isoDateTime,
});

/** A person approved a budget for paid work; the workspace may spend up to the sum of its budgets. */
export const BudgetApproved = z.strictObject({
  budgetId: uuid,
  /** The plan it was approved for, when it came from a task's plan. */
  taskId: taskId.optional(),
  /**
   * The one job it covers: a person approved a paid call's card that asked for money beyond the
   * budgets. It adds to the workspace's budgets, never to a plan's.
   */
  jobId: uuid.optional(),
  /** The card it was approved through (a plan's budget card, a paid call's card). */
  checkpointId: checkpointId.optional(),
  amountMinor,
  currency: currencyCode,
  approvedBy: userId,
  approvedAt: isoDateTime,
});

/** What may be reserved without asking: per call and per day, in the workspace's time zone. */
export const LimitsSet = z.strictObject({
  currency: currencyCode,
  perCallAutoApproveMinor: amountMinor,
  dailyAutoApproveMinor: amountMinor,
  timeZone: timeZoneName,
  setBy: userId,
  setAt: isoDateTime,
});

/**
 * Money held for one job before it is submitted. `authorization` says what allowed it: the
 * person's approval of the quote, the task's plan budget the person approved (`plan_approved`),
 * or the auto-approve limits. Money not approved call by call counts towards `day`.
 */
export const FundsReserved = z.strictObject({
  entryId: uuid,
  jobId: uuid,
  quoteId: uuid,
  amountMinor,
  currency: currencyCode,
  authorization: z.enum(['quote_approved', 'auto_approved', 'plan_approved']),
  day: calendarDay,
  reservedAt: isoDateTime,
  expiresAt: isoDateTime,
});

/** A reservation that never reached submit was released (the job failed first, or it expired). */
export const ReservationReleased = z.strictObject({
  entryId: uuid,
  jobId: uuid,
  amountMinor,
  currency: currencyCode,
  reason: z.enum(['job_failed', 'expired']),
  releasedAt: isoDateTime,
});

/** The job was submitted: its reservation became a charge. */
export const JobCharged = z.strictObject({
  entryId: uuid,
  jobId: uuid,
  amountMinor,
  currency: currencyCode,
  chargedAt: isoDateTime,
});

/** A charged job failed or its outcome is unknown: the charge is returned whole. */
export const JobRefunded = z.strictObject({
  entryId: uuid,
  jobId: uuid,
  amountMinor,
  currency: currencyCode,
  reason: generationFailureReason,
  refundedAt: isoDateTime,
});
