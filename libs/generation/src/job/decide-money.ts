import { ledgerEntryId } from '../account/account-ids';
import type { RecordCharge, RecordRefund } from './job-commands';
import { GenerationJobErrors } from './job-errors';
import type { GenerationJobEvent } from './job-events';
import { existing, instant, refuse, upstreamIdOf } from './job-guards';
import type { GenerationJobState } from './job-state';

// The account stream is the ledger (../account); the job records the entries that concern it
// after the account holds them, under the same entry ids (../account/account-ids.ts), so the job
// stream alone tells a reader what the job cost. A record that disagrees with the ledger entry
// the job can have (another id, another amount) is refused: it cannot be about this job.

/**
 * Charged on submit: the job needs its upstream id, or to have failed after its request may have
 * reached the upstream (../account/settle-job.ts charges and refunds those); a second record of
 * the charge is a no-op.
 */
export function recordCharge(command: RecordCharge, state: GenerationJobState): GenerationJobEvent[] {
  const job = existing(state);
  if (job.charge !== null) return [];
  const sentWithoutAnswer = job.status === 'failed' && job.submissionStarted;
  if (upstreamIdOf(job) === null && !sentWithoutAnswer)
    return refuse(GenerationJobErrors.JOB_NOT_SUBMITTED, `Job ${job.jobId} was never submitted, so never charged`, {
      jobId: job.jobId,
    });
  const expected = ledgerEntryId(job.jobId, 'charge');
  if (
    command.entryId !== expected ||
    command.amountMinor !== job.quote.amountMinor ||
    command.currency !== job.quote.currency
  )
    return refuse(GenerationJobErrors.LEDGER_MISMATCH, `The charge is not job ${job.jobId}'s ledger entry`, {
      jobId: job.jobId,
      expected: { entryId: expected, amountMinor: job.quote.amountMinor, currency: job.quote.currency },
    });
  const data = {
    entryId: command.entryId,
    amountMinor: command.amountMinor,
    currency: command.currency,
    chargedAt: instant(command.at),
  };
  return [{ type: 'GenerationCharged', data }];
}

/** A refund without a charge does nothing; a second refund does nothing; a refund returns the whole charge. */
export function recordRefund(command: RecordRefund, state: GenerationJobState): GenerationJobEvent[] {
  const job = existing(state);
  if (job.charge === null || job.refund !== null) return [];
  const expected = ledgerEntryId(job.jobId, 'refund');
  if (
    command.entryId !== expected ||
    command.amountMinor !== job.charge.amountMinor ||
    command.currency !== job.charge.currency
  )
    return refuse(GenerationJobErrors.LEDGER_MISMATCH, `The refund is not job ${job.jobId}'s ledger entry`, {
      jobId: job.jobId,
      expected: { entryId: expected, amountMinor: job.charge.amountMinor, currency: job.charge.currency },
    });
  const data = {
    entryId: command.entryId,
    amountMinor: command.amountMinor,
    currency: command.currency,
    reason: command.reason,
    refundedAt: instant(command.at),
  };
  return [{ type: 'GenerationRefunded', data }];
}
