import { assertNever, type PlanBudget } from '@lomo/domain';
import type { PaymentMode } from '../account/account-commands';
import { availableOf, totalsOf } from '../account/account-guards';
import type { AccountState } from '../account/account-state';
import { settleJob, type SettlementStep } from '../account/settle-job';
import type { GenerationJobState, SubmittedJob } from '../job/job-state';
import type { GenerationTimings } from './generation-timings';
import { cardMatchesJob, type CardDecision, type PaymentAuthority } from './payment-authority';

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
 * - `recordPlanBudgets`: the task's plan budgets the person approved (a budget card's total, an
 *   approvePlanBudget) are money on the account before anything is reserved against them;
 * - `approveFromCard`: the person approved the call's own card (persisted on the task before
 *   anything consumes it): its quote is approved, with a budget for this one job when the budgets
 *   cannot hold it; a card that no longer matches the job (another order, another price) refuses;
 * - `decline`: the person rejected the card, or its approval does not match the job: it fails;
 * - `reserve`: hold the quote's amount in the task's payment mode (the account decider refuses
 *   without an approval, the plan budget or the limits);
 * - `awaitApproval`: a person was asked; their decision on the card lets it go on;
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
  | { kind: 'recordPlanBudgets'; budgets: PlanBudget[] }
  | { kind: 'approveFromCard'; card: Extract<CardDecision, { state: 'approved' }>; extendBudgetMinor: number }
  | { kind: 'decline'; message: string }
  | { kind: 'reserve'; mode: PaymentMode }
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
  /** What the task says about paying for the call; read only while nothing is reserved. Absent: within the plan, no card. */
  authority?: PaymentAuthority,
): JobPlan {
  if (job.status === 'none') return { kind: 'done' };
  const at = new Date(nowMs).toISOString();
  const steps = settleJob(job, account, at);
  if (steps.length > 0) return { kind: 'settle', steps };
  switch (job.status) {
    case 'requested': {
      const ledger = account.jobs[job.jobId];
      if (ledger === undefined) return planUnreserved(job, account, authority);
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

/** Nothing held yet: the person's decisions first (budgets, the call's card), then the reservation. */
function planUnreserved(
  job: Extract<GenerationJobState, { status: 'requested' }>,
  account: AccountState,
  authority: PaymentAuthority | undefined,
): JobPlan {
  const mode = authority?.mode ?? 'within_plan';
  const quoteApproved = account.quotes[job.quote.quoteId]?.approval != null;
  if (authority !== undefined) {
    const missing = authority.planBudgets.filter((b) => account.budgets[b.budgetId] === undefined);
    if (missing.length > 0) return { kind: 'recordPlanBudgets', budgets: missing };
    const card = authority.card;
    if (card.state === 'rejected' && !quoteApproved)
      return {
        kind: 'decline',
        message: `The person declined this paid call (${job.quote.amountMinor} ${job.quote.currency})`,
      };
    if (card.state === 'approved' && !quoteApproved) {
      const match = cardMatchesJob(card, job);
      if (!match.matches) return { kind: 'decline', message: `The approval does not authorize this job: ${match.why}` };
      const available = availableOf(totalsOf(account, job.quote.currency));
      return {
        kind: 'approveFromCard',
        card,
        extendBudgetMinor: available < job.quote.amountMinor ? job.quote.amountMinor : 0,
      };
    }
  }
  if (job.approvalAsked === null || quoteApproved) return { kind: 'reserve', mode };
  return { kind: 'awaitApproval' };
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
