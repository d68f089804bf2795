import { assertNever } from '@lomo/domain';
import type { AccountState } from '../account/account-state';
import { settleJob, type SettlementStep } from '../account/settle-job';
import type { GenerationJobState, SubmittedJob } from '../job/job-state';
import type { GenerationTimings } from './generation-timings';

/** What this process knows about a job beyond its streams. */
export interface LocalJobFacts {
  /** This process is sending the job's request right now. */
  submitting: boolean;
  /** When this process last polled the job (ms since epoch), if it did. */
  lastPolledAtMs?: number;
  /** Whether the job's provider calls back (else it is polled with backoff). */
  sendsCallbacks: boolean;
}

/**
 * The next thing to do for one job. Tagged outputs a thin runner executes
 * (./generation-service.ts), as libs/runtime/src/process/plan-turn.ts does for turns:
 *
 * - `settle`: money first, always: the ledger and the job's record of it (../account/settle-job.ts);
 * - `reserve`: hold the quote's amount (the account decider refuses without an approval or limits);
 * - `awaitApproval`: a person was asked; QuoteApproved lets it go on;
 * - `startSubmission`: money held, nobody sending: record the intent, then send (only the writer
 *   whose append recorded it sends);
 * - `awaitSubmit`: sending, here or elsewhere; `untilMs` is when the submit timeout fires;
 * - `failSubmitTimeout`: the crash window closed without an upstream id (or the reservation
 *   expired before anyone sent);
 * - `poll`: submitted; `atMs` is when to poll (compensation polling for providers that call back);
 * - `failSilent`: submitted and silent past the job timeout: outcome unknown;
 * - `done`: nothing left (a final job whose money is settled, or no job).
 */
export type JobPlan =
  | { kind: 'settle'; steps: SettlementStep[] }
  | { kind: 'reserve' }
  | { kind: 'awaitApproval' }
  | { kind: 'startSubmission' }
  | { kind: 'awaitSubmit'; untilMs: number }
  | { kind: 'failSubmitTimeout'; sent: boolean }
  | { kind: 'poll'; atMs: number; compensation: boolean }
  | { kind: 'failSilent' }
  | { kind: 'done' };

export function planJob(
  job: GenerationJobState,
  account: AccountState,
  nowMs: number,
  local: LocalJobFacts,
  timings: GenerationTimings,
): JobPlan {
  if (job.status === 'none') return { kind: 'done' };
  const at = new Date(nowMs).toISOString();
  const steps = settleJob(job, account, at);
  if (steps.length > 0) return { kind: 'settle', steps };
  switch (job.status) {
    case 'requested': {
      const ledger = account.jobs[job.jobId];
      if (ledger === undefined) {
        if (job.approvalAsked === null) return { kind: 'reserve' };
        const approved = account.quotes[job.quote.quoteId]?.approval != null;
        return approved ? { kind: 'reserve' } : { kind: 'awaitApproval' };
      }
      if (ledger.status !== 'reserved') return { kind: 'done' };
      if (job.submissionStartedAt === null) {
        if (nowMs >= Date.parse(ledger.expiresAt)) return { kind: 'failSubmitTimeout', sent: false };
        return { kind: 'startSubmission' };
      }
      const untilMs = Date.parse(job.submissionStartedAt) + timings.submitTimeoutMs;
      if (nowMs >= untilMs) return { kind: 'failSubmitTimeout', sent: true };
      return { kind: 'awaitSubmit', untilMs };
    }
    case 'submitted':
      return planSubmitted(job, nowMs, local, timings);
    case 'completed':
    case 'failed':
      return { kind: 'done' };
    default:
      return assertNever(job, 'generation job');
  }
}

/** Callbacks first where there are any; polls fill the gaps (lost callbacks) or do all the work. */
function planSubmitted(job: SubmittedJob, nowMs: number, local: LocalJobFacts, timings: GenerationTimings): JobPlan {
  const heardMs = Math.max(
    Date.parse(job.submittedAt),
    job.lastProgress === null ? 0 : Date.parse(job.lastProgress.at),
  );
  if (nowMs - heardMs >= timings.jobTimeoutMs) return { kind: 'failSilent' };
  if (local.sendsCallbacks) {
    const lastMs = Math.max(heardMs, local.lastPolledAtMs ?? 0);
    return { kind: 'poll', atMs: lastMs + timings.silenceMs, compensation: true };
  }
  if (local.lastPolledAtMs === undefined) return { kind: 'poll', atMs: nowMs, compensation: false };
  // Backoff by age: a young job is polled every pollInitialMs, an old one every pollMaxMs.
  const age = nowMs - Date.parse(job.submittedAt);
  const interval = Math.min(
    timings.pollMaxMs,
    Math.max(
      timings.pollInitialMs,
      (2 ** Math.floor(Math.log2(Math.max(1, age / timings.pollInitialMs))) * timings.pollInitialMs) / 2,
    ),
  );
  return { kind: 'poll', atMs: local.lastPolledAtMs + interval, compensation: false };
}
