import type { Actor } from '@lomo/contracts';
import type { GenerationFailureReason, GenerationQuoteData } from '../job/job-events';
import type { ReleaseReason } from './account-events';

// Commands spell out their own fields; time arrives inside each (`at`, ISO 8601). Approvals name
// the person (`approvedBy`, `setBy`) and the actor recording them (`by`): the agent never
// approves, and a person approves only as themselves; a system component may record a person's
// recorded decision (a resolved checkpoint).

/** The price of one job, before anything is reserved; the same quote again is a no-op. */
export type IssueQuote = {
  type: 'IssueQuote';
  quote: GenerationQuoteData;
  jobId: string;
  taskId: string;
  callId: string;
  at: string;
};

export type ApproveQuote = {
  type: 'ApproveQuote';
  quoteId: string;
  approvedBy: string;
  checkpointId?: string;
  by: Actor;
  at: string;
};

export type ApproveBudget = {
  type: 'ApproveBudget';
  budgetId: string;
  taskId?: string;
  /** Covers this one job only (a paid call's card asked for money beyond the budgets). */
  jobId?: string;
  /** The card it was approved through. */
  checkpointId?: string;
  amountMinor: number;
  currency: string;
  approvedBy: string;
  by: Actor;
  at: string;
};

export type SetLimits = {
  type: 'SetLimits';
  currency: string;
  perCallAutoApproveMinor: number;
  dailyAutoApproveMinor: number;
  timeZone: string;
  setBy: string;
  by: Actor;
  at: string;
};

/**
 * How the task lets paid calls go ahead without their own card (the generation service reads it
 * from the task: its autonomy and who directed the work). `per_call` (manual, or directed by an
 * integration): every call waits for the person's approval of its quote. `within_plan`
 * (assisted): a task with a plan budget runs its calls within it and asks beyond it; one without
 * a plan budget uses the workspace's auto-approve limits. `plan_or_limits` (autonomous): as
 * `within_plan`, and a call beyond the plan budget may still go ahead within the workspace's
 * auto-approve limits (the person's standing approval), asking only beyond both.
 */
export type PaymentMode = 'per_call' | 'within_plan' | 'plan_or_limits';

/**
 * Holds the quote's amount for the job before its submit: within the approved budgets, and
 * approved by a person, within the task's plan budget, or within the auto-approve limits. Once
 * per job. `mode` absent is `within_plan`.
 */
export type ReserveFunds = {
  type: 'ReserveFunds';
  jobId: string;
  quoteId: string;
  at: string;
  expiresAt: string;
  mode?: PaymentMode;
  /**
   * Drills only (LOMO_TEST_MUTATIONS=no_budget_check, libs/platform/src/test-control/README.md):
   * reserve without the authority and availability checks, as if the plan covered it. Never set
   * in production, where test control is refused.
   */
  skipBudgetCheck?: true;
};

/** Returns a reservation that never reached submit (the job failed first, or it expired). */
export type ReleaseReservation = { type: 'ReleaseReservation'; jobId: string; reason: ReleaseReason; at: string };

/** The job was submitted: its reservation becomes a charge. */
export type ChargeJob = { type: 'ChargeJob'; jobId: string; at: string };

/** The charged job failed or its outcome is unknown: the whole charge goes back. */
export type RefundJob = { type: 'RefundJob'; jobId: string; reason: GenerationFailureReason; at: string };

export type AccountCommand =
  IssueQuote | ApproveQuote | ApproveBudget | SetLimits | ReserveFunds | ReleaseReservation | ChargeJob | RefundJob;
