import { LomoError } from '@lomo/contracts';

/** Refusal codes of bad or impossible account commands; callers match on these, never on messages. */
export const AccountErrors = {
  QUOTE_NOT_FOUND: 'ACCOUNT_QUOTE_NOT_FOUND',
  /** A quote id or a job quoted again with another price. */
  QUOTE_CONFLICT: 'ACCOUNT_QUOTE_CONFLICT',
  /** The reservation names a quote of another job. */
  QUOTE_MISMATCH: 'ACCOUNT_QUOTE_MISMATCH',
  /** An approval, a budget or limits recorded by the agent, or by a person in another's name. */
  APPROVAL_NOT_BY_PERSON: 'ACCOUNT_APPROVAL_NOT_BY_PERSON',
  BUDGET_CONFLICT: 'ACCOUNT_BUDGET_CONFLICT',
  /** Released as expired before the reservation's expiry. */
  RESERVATION_NOT_EXPIRED: 'ACCOUNT_RESERVATION_NOT_EXPIRED',
  /** A charge for a reservation that was released (the job failed or expired before submit). */
  RESERVATION_RELEASED: 'ACCOUNT_RESERVATION_RELEASED',
  INVALID_COMMAND: 'ACCOUNT_INVALID_COMMAND',
} as const;

export type AccountErrorCode = (typeof AccountErrors)[keyof typeof AccountErrors];

/** A refused account command: nothing was appended. */
export class AccountRefusedError extends LomoError {
  readonly retriable = false;
  constructor(
    readonly code: AccountErrorCode,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
  }
}

/**
 * Why a paid call may not go ahead (DESIGN.md §5: no paid side effect without server-side
 * authorization recorded as an event). The caller opens a checkpoint showing `details.quote`
 * and asks the person; nothing was appended.
 */
export const PaymentRefusals = {
  /** The quote is above the per-call auto-approve limit (or no limits are set) and no person approved it. */
  QUOTE_NOT_APPROVED: 'PAYMENT_QUOTE_NOT_APPROVED',
  /** Auto-approving it would pass the daily auto-approve limit of the workspace's day. */
  DAILY_LIMIT_EXCEEDED: 'PAYMENT_DAILY_LIMIT_EXCEEDED',
  /** Reserved and spent money plus this quote would pass the approved budgets. */
  BUDGET_EXCEEDED: 'PAYMENT_BUDGET_EXCEEDED',
  /**
   * The task has a plan budget and this quote would take its plan-approved money past it: the
   * scope or the cost grew beyond the approved plan, so the person is asked again with the quote.
   */
  PLAN_BUDGET_EXCEEDED: 'PAYMENT_PLAN_BUDGET_EXCEEDED',
  /**
   * Every paid call of this task is confirmed on its own: its autonomy is "ask before every paid
   * step", or the work was started by an integration's token (DESIGN.md §5).
   */
  CALL_CONFIRMATION_REQUIRED: 'PAYMENT_CALL_CONFIRMATION_REQUIRED',
  /** A charge with no reservation held for the job. */
  NO_RESERVATION: 'PAYMENT_NO_RESERVATION',
} as const;

export type PaymentRefusalCode = (typeof PaymentRefusals)[keyof typeof PaymentRefusals];

export class PaymentNotAuthorizedError extends LomoError {
  readonly retriable = false;
  constructor(
    readonly code: PaymentRefusalCode,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
  }
}
