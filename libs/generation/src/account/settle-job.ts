import { assertNever } from '@lomo/domain';
import type { GenerationJobCommand } from '../job/job-commands';
import type { GenerationJobState } from '../job/job-state';
import type { AccountCommand } from './account-commands';
import { ledgerEntryId } from './account-ids';
import type { AccountState } from './account-state';

/** One write settling a job's money: to the account stream (the ledger) or the job stream (its record). */
export type SettlementStep =
  { stream: 'account'; command: AccountCommand } | { stream: 'job'; command: GenerationJobCommand };

/**
 * What is still to write so that a job's money matches its state, given both streams as folded
 * now. The generation app runs it after every job event and the watchdog runs it again, so a
 * crash between two writes is repaired by the next run, and a step written twice is a no-op
 * (entry ids from (jobId, kind)). The ledger leads and the job's record follows:
 *
 * - submitted or completed with money held → charge (JobCharged: charged on submit);
 * - failed with money held → release it (never charged; "expired" when the submit timed out),
 *   unless the request may have reached the upstream (an unknown outcome, or a submit that had
 *   started when the submit timeout fired): then charge it, and refund it on the next run;
 * - failed and charged → refund the whole charge (an unknown outcome is refunded too);
 * - a charge or refund on the ledger the job has not recorded → record it on the job.
 *
 * Pure: `at` is the time the steps are written.
 */
export function settleJob(job: GenerationJobState, account: AccountState, at: string): SettlementStep[] {
  if (job.status === 'none') return [];
  const ledger = account.jobs[job.jobId];
  if (ledger === undefined) return [];
  const { jobId } = job;
  const steps: SettlementStep[] = [];
  const recordCharge = (): SettlementStep => ({
    stream: 'job',
    command: {
      type: 'RecordCharge',
      entryId: ledgerEntryId(jobId, 'charge'),
      amountMinor: ledger.amountMinor,
      currency: ledger.currency,
      at,
    },
  });
  switch (ledger.status) {
    case 'reserved':
      if (job.status === 'submitted' || job.status === 'completed')
        steps.push({ stream: 'account', command: { type: 'ChargeJob', jobId, at } });
      else if (job.status === 'failed' && mayHaveReachedUpstream(job)) {
        // The request may have been accepted and billed upstream: count it as spent, then refund
        // it whole (the next run of settleJob), so the ledger shows both.
        steps.push({ stream: 'account', command: { type: 'ChargeJob', jobId, at } });
      } else if (job.status === 'failed') {
        const reason =
          job.reason === 'submit_timeout' && Date.parse(at) >= Date.parse(ledger.expiresAt) ? 'expired' : 'job_failed';
        steps.push({ stream: 'account', command: { type: 'ReleaseReservation', jobId, reason, at } });
      }
      return steps;
    case 'released':
      return steps;
    case 'charged':
      if (job.charge === null) steps.push(recordCharge());
      if (job.status === 'failed')
        steps.push({ stream: 'account', command: { type: 'RefundJob', jobId, reason: job.reason, at } });
      return steps;
    case 'refunded':
      if (job.charge === null) steps.push(recordCharge());
      if (job.refund === null)
        steps.push({
          stream: 'job',
          command: {
            type: 'RecordRefund',
            entryId: ledgerEntryId(jobId, 'refund'),
            amountMinor: ledger.amountMinor,
            currency: ledger.currency,
            reason: ledger.reason,
            at,
          },
        });
      return steps;
    default:
      return assertNever(ledger, 'job ledger');
  }
}

/** Sent, and no answer proves that nothing was made upstream. */
function mayHaveReachedUpstream(job: Extract<GenerationJobState, { status: 'failed' }>): boolean {
  return job.submissionStarted && (job.reason === 'outcome_unknown' || job.reason === 'submit_timeout');
}
