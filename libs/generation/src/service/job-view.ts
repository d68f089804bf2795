import { assertNever } from '@lomo/domain';
import type { AccountState } from '../account/account-state';
import type { ExistingJob } from '../job/job-state';
import type { GenerationJobPhase, GenerationJobView } from './generation-requests.port';

/** A job as the tools and the API show it, from its stream and its workspace's account. */
export function jobView(job: ExistingJob, account: AccountState): GenerationJobView {
  const { quote } = job;
  const base = {
    jobId: job.jobId,
    callId: job.callId,
    taskId: job.taskId,
    kind: job.kind,
    operation: job.operation,
    provider: job.provider,
    quote: {
      quoteId: quote.quoteId,
      amountMinor: quote.amountMinor,
      currency: quote.currency,
      units: quote.units,
      unit: quote.unit,
    },
  };
  switch (job.status) {
    case 'requested':
      return { ...base, phase: requestedPhase(job, account), progress: 0 };
    case 'submitted':
      return { ...base, phase: 'submitted', progress: job.lastProgress?.progress ?? 0 };
    case 'completed':
      return { ...base, phase: 'completed', progress: 100, artifactId: job.artifactId };
    case 'failed':
      return {
        ...base,
        phase: 'failed',
        progress: job.lastProgress?.progress ?? 0,
        failure: { reason: job.reason, message: job.message },
      };
    default:
      return assertNever(job, 'generation job');
  }
}

function requestedPhase(job: Extract<ExistingJob, { status: 'requested' }>, account: AccountState): GenerationJobPhase {
  if (job.approvalAsked === null || account.jobs[job.jobId] !== undefined) return 'requested';
  return 'awaiting_approval';
}
