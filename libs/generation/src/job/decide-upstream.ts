import { assertNever } from '@lomo/domain';
import type { CompleteGeneration, FailGeneration, RecordProgress, RecordSubmission } from './job-commands';
import { GenerationJobErrors } from './job-errors';
import type { GenerationFailureReason, GenerationJobEvent } from './job-events';
import { existing, instant, invalid, refuse } from './job-guards';
import { progressAdvances } from './job-progress';
import type { GenerationJobState } from './job-state';

// Reports from the upstream arrive late, twice and out of order (callbacks race polls). The rule
// of DESIGN.md §4 step 5: duplicates are no-ops and a job never moves backwards, so every report
// that would not move the job forward decides nothing instead of failing.

/** The upstream id is recorded once; the same id again is a no-op, another id is two orders. */
export function recordSubmission(command: RecordSubmission, state: GenerationJobState): GenerationJobEvent[] {
  const job = existing(state);
  if (command.upstreamJobId.trim() === '' || command.upstreamJobId.length > 200)
    invalid('An upstream job id is 1-200 characters');
  switch (job.status) {
    case 'requested':
      return [
        {
          type: 'GenerationSubmitted',
          data: { upstreamJobId: command.upstreamJobId, submittedAt: instant(command.at) },
        },
      ];
    case 'submitted':
    case 'completed':
      if (job.upstreamJobId === command.upstreamJobId) return [];
      return refuse(
        GenerationJobErrors.UPSTREAM_ID_CONFLICT,
        `Job ${job.jobId} is upstream job ${job.upstreamJobId}, not ${command.upstreamJobId}`,
        { jobId: job.jobId, upstreamJobId: job.upstreamJobId },
      );
    case 'failed':
      // A submit answered after the job already failed (the submit timeout fired first): the job
      // stays failed and refunded; the id is not recorded, so nothing can move it again.
      return [];
    default:
      return assertNever(job, 'generation job');
  }
}

export function recordProgress(command: RecordProgress, state: GenerationJobState): GenerationJobEvent[] {
  const job = existing(state);
  if (!Number.isInteger(command.progress) || command.progress < 0 || command.progress > 100)
    invalid(`Progress is a whole percentage 0..100, got ${command.progress}`);
  // Before the upstream id is recorded no report can be about this job; after the end, a late
  // "processing" is ignored (never backwards).
  if (job.status !== 'submitted') return [];
  const { callbackEventId } = command;
  if (callbackEventId !== undefined && job.callbackEventIds.has(callbackEventId)) return [];
  if (!progressAdvances(job.lastProgress, command.progress, command.status)) return [];
  const data = {
    progress: command.progress,
    status: command.status,
    source: command.source,
    ...(callbackEventId !== undefined ? { callbackEventId } : {}),
    observedAt: instant(command.at),
  };
  return [{ type: 'GenerationProgressed', data }];
}

export function completeGeneration(command: CompleteGeneration, state: GenerationJobState): GenerationJobEvent[] {
  const job = existing(state);
  switch (job.status) {
    case 'requested':
      return refuse(GenerationJobErrors.JOB_NOT_SUBMITTED, `Job ${job.jobId} has no upstream id to have a result`, {
        jobId: job.jobId,
      });
    case 'submitted':
      return [
        {
          type: 'GenerationCompleted',
          data: { result: { ...command.result }, artifactId: command.artifactId, completedAt: instant(command.at) },
        },
      ];
    case 'completed':
    case 'failed':
      // A duplicate completion, or one after the job failed (its outcome was given up as
      // unknown and refunded): one key, one effect.
      return [];
    default:
      return assertNever(job, 'generation job');
  }
}

/**
 * Reasons about the submit itself: once the upstream id is recorded they no longer apply. A
 * submit-timeout watchdog that read the job before its id was recorded decides again on the
 * fresh state (the append's expected revision) and then fails nothing.
 */
const submitPhaseReasons: ReadonlySet<GenerationFailureReason> = new Set(['rejected', 'submit_timeout', 'declined']);

export function failGeneration(command: FailGeneration, state: GenerationJobState): GenerationJobEvent[] {
  const job = existing(state);
  if (command.message.trim() === '') invalid('A failure says why');
  switch (job.status) {
    case 'requested':
      break;
    case 'submitted':
      if (submitPhaseReasons.has(command.reason)) return [];
      break;
    case 'completed':
    case 'failed':
      return [];
    default:
      return assertNever(job, 'generation job');
  }
  const data = {
    reason: command.reason,
    message: command.message.slice(0, 2000),
    ...(command.upstreamCode !== undefined ? { upstreamCode: command.upstreamCode } : {}),
    failedAt: instant(command.at),
  };
  return [{ type: 'GenerationFailed', data }];
}
