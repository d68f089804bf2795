import { assertNever } from '@lomo/domain';
import type { GenerationJobEvent } from './job-events';
import { progressAdvances } from './job-progress';
import type { ExistingJob, GenerationJobState, JobFacts } from './job-state';

const factsOf = (job: ExistingJob): JobFacts & Pick<ExistingJob, 'charge' | 'refund'> => ({
  jobId: job.jobId,
  workspaceId: job.workspaceId,
  taskId: job.taskId,
  turnId: job.turnId,
  callId: job.callId,
  provider: job.provider,
  kind: job.kind,
  operation: job.operation,
  params: job.params,
  quote: job.quote,
  requestedAt: job.requestedAt,
  charge: job.charge,
  refund: job.refund,
});

/**
 * Folds one event. Like the decider it never moves a job backwards: an event that could not
 * follow the state (a duplicate appended by a stale writer, a report after the end) leaves it as
 * it is, so a replay of any log gives the state the deciders saw.
 */
export function evolveGenerationJob(state: GenerationJobState, event: GenerationJobEvent): GenerationJobState {
  switch (event.type) {
    case 'GenerationRequested': {
      if (state.status !== 'none') return state;
      const d = event.data;
      return {
        status: 'requested',
        jobId: d.jobId,
        workspaceId: d.workspaceId,
        taskId: d.taskId,
        turnId: d.turnId,
        callId: d.callId,
        provider: d.provider,
        kind: d.kind,
        operation: d.operation,
        params: d.params,
        quote: d.quote,
        requestedAt: d.requestedAt,
        charge: null,
        refund: null,
        approvalAsked: null,
        submissionStartedAt: null,
      };
    }
    case 'GenerationSubmissionStarted':
      if (state.status !== 'requested' || state.submissionStartedAt !== null) return state;
      return { ...state, submissionStartedAt: event.data.startedAt };
    case 'GenerationApprovalRequested':
      if (state.status !== 'requested' || state.approvalAsked !== null) return state;
      return { ...state, approvalAsked: { ...event.data } };
    case 'GenerationSubmitted':
      if (state.status !== 'requested') return state;
      return {
        ...factsOf(state),
        status: 'submitted',
        upstreamJobId: event.data.upstreamJobId,
        submittedAt: event.data.submittedAt,
        lastProgress: null,
        callbackEventIds: new Set<string>(),
      };
    case 'GenerationProgressed': {
      if (state.status !== 'submitted') return state;
      const { progress, status, source, callbackEventId, observedAt } = event.data;
      const callbackEventIds =
        callbackEventId === undefined
          ? state.callbackEventIds
          : // A copy, as states are values; a Set, as spreading an object keyed by ids is the slow path.
            new Set(state.callbackEventIds).add(callbackEventId);
      const forward = progressAdvances(state.lastProgress, progress, status);
      return {
        ...state,
        callbackEventIds,
        lastProgress: forward ? { progress, status, source, at: observedAt } : state.lastProgress,
      };
    }
    case 'GenerationCompleted':
      if (state.status !== 'submitted') return state;
      return {
        ...factsOf(state),
        status: 'completed',
        upstreamJobId: state.upstreamJobId,
        result: event.data.result,
        artifactId: event.data.artifactId,
        completedAt: event.data.completedAt,
        lastProgress: state.lastProgress,
      };
    case 'GenerationFailed':
      if (state.status !== 'requested' && state.status !== 'submitted') return state;
      return {
        ...factsOf(state),
        status: 'failed',
        submissionStarted: state.status === 'submitted' || state.submissionStartedAt !== null,
        upstreamJobId: state.status === 'submitted' ? state.upstreamJobId : null,
        reason: event.data.reason,
        message: event.data.message,
        failedAt: event.data.failedAt,
        lastProgress: state.status === 'submitted' ? state.lastProgress : null,
      };
    case 'GenerationCharged': {
      if (state.status === 'none' || state.charge !== null) return state;
      const { entryId, amountMinor, currency, chargedAt } = event.data;
      return { ...state, charge: { entryId, amountMinor, currency, at: chargedAt } };
    }
    case 'GenerationRefunded': {
      if (state.status === 'none' || state.charge === null || state.refund !== null) return state;
      const { entryId, amountMinor, currency, refundedAt } = event.data;
      return { ...state, refund: { entryId, amountMinor, currency, at: refundedAt } };
    }
    default:
      return assertNever(event, 'generation job event');
  }
}
