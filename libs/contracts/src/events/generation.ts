import { z } from 'zod';
import { blobRef, jsonValue } from './shared';
import { callId, isoDateTime, taskId, turnId, uuid, workspaceId } from '../ids';

/**
 * The `generation-{jobId}` stream (DESIGN.md §3): one paid media job. Its id derives from
 * (workspaceId, idempotencyKey), so `GenerationRequested` appended with "no stream" expected is
 * the uniqueness constraint of one tool call = one order. The money ledger is the `account-`
 * stream (./account.ts); `GenerationCharged` and `GenerationRefunded` are the job's record of
 * the ledger entries that concern it, written after them with the same entry ids.
 */

export const mediaKind = z.enum(['image', 'video', '3d', 'audio']);

/** ISO 4217 code. */
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'ISO 4217 currency code');

/** Money is integer minor units (cents, fen); never floats. */
export const amountMinor = z.number().int().min(0).max(100_000_000);

/** Provider names as used in routes (`/callbacks/generation/:provider`). */
export const providerName = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'provider names are lowercase');

/** The price of one submission, fixed before it is made (the GenerationProvider port's quote). */
export const generationQuote = z.strictObject({
  quoteId: uuid,
  provider: providerName,
  units: z.number().min(0).max(1_000_000),
  unit: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/),
  unitPriceMinor: amountMinor,
  amountMinor,
  currency: currencyCode,
});

/** Why a job failed. The stream records which, so refunds and reports can tell them apart. */
export const generationFailureReason = z.enum([
  /** The upstream refused the request itself (4xx): no job was made. */
  'rejected',
  /** The request was sent and no answer came, or a submitted job never reported back in time. */
  'outcome_unknown',
  /** Crash window: no upstream id was recorded within the submit timeout. */
  'submit_timeout',
  /** The upstream reported the job failed. */
  'upstream_failed',
  'cancelled',
  /** The person declined the quote at its checkpoint. */
  'declined',
]);

export const GenerationRequested = z.strictObject({
  jobId: uuid,
  workspaceId,
  taskId,
  turnId,
  /** The idempotency key: the tool call id `{turnId}:{step}:{index}`, without the execution generation. */
  callId,
  provider: providerName,
  kind: mediaKind,
  operation: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/),
  params: z.strictObject({
    prompt: z.string().min(1).max(32_000),
    options: z.record(z.string().max(64), jsonValue),
  }),
  quote: generationQuote,
  requestedAt: isoDateTime,
});

/**
 * The quote may not be auto-approved (over the per-call or daily limit, no limits set, or over
 * the approved budgets): an approval checkpoint was opened on the task and the job waits for a
 * person's `QuoteApproved`. Nothing was sent upstream.
 */
export const GenerationApprovalRequested = z.strictObject({
  quoteId: uuid,
  checkpointId: uuid,
  /** The account's refusal code (PAYMENT_QUOTE_NOT_APPROVED, PAYMENT_DAILY_LIMIT_EXCEEDED, PAYMENT_BUDGET_EXCEEDED, PAYMENT_PLAN_BUDGET_EXCEEDED). */
  refusal: z.string().regex(/^[A-Z][A-Z0-9_]{1,63}$/),
  askedAt: isoDateTime,
});

/**
 * One worker is about to send the paid request: the durable intent before the irreversible effect.
 * Only the writer whose append recorded it sends; a job with it and without an upstream id may
 * have reached the upstream (a crash in between), so its money is charged and refunded, while a
 * job that never got here only releases its reservation.
 */
export const GenerationSubmissionStarted = z.strictObject({
  startedAt: isoDateTime,
});

/** The upstream accepted the job: its id is persisted the moment it is known (DESIGN.md §4 step 5). */
export const GenerationSubmitted = z.strictObject({
  upstreamJobId: z.string().min(1).max(200),
  submittedAt: isoDateTime,
});

/** Progress only ever rises; ticks are coalesced to one per second per job before they get here. */
export const GenerationProgressed = z.strictObject({
  progress: z.number().int().min(0).max(100),
  status: z.enum(['queued', 'processing']),
  source: z.enum(['callback', 'poll']),
  /** The upstream's id of the callback delivery, when it came by callback. */
  callbackEventId: z.string().min(1).max(200).optional(),
  observedAt: isoDateTime,
});

/** The result is in the BlobStore and an artefact was made of it. */
export const GenerationCompleted = z.strictObject({
  result: blobRef,
  artifactId: uuid,
  completedAt: isoDateTime,
});

export const GenerationFailed = z.strictObject({
  reason: generationFailureReason,
  message: z.string().min(1).max(2000),
  /** The upstream's own failure code, when it gave one. */
  upstreamCode: z.string().min(1).max(200).optional(),
  failedAt: isoDateTime,
});

/** The job's record of its `JobCharged` ledger entry on the account stream (same entry id). */
export const GenerationCharged = z.strictObject({
  entryId: uuid,
  amountMinor,
  currency: currencyCode,
  chargedAt: isoDateTime,
});

/** The job's record of its `JobRefunded` ledger entry on the account stream (same entry id). */
export const GenerationRefunded = z.strictObject({
  entryId: uuid,
  amountMinor,
  currency: currencyCode,
  reason: generationFailureReason,
  refundedAt: isoDateTime,
});
