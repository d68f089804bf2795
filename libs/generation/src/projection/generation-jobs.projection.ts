import type { KnownEvent, ProjectionDefinition } from '@lomo/read-models';
import { generationJobEventTypes } from '../job/job-events';
import { progressAdvances } from '../job/job-progress';
import { GENERATION_JOBS, type GenerationJobDocument, type JobPhase } from './generation-documents';

const fromJob = { owner: 'stream', category: 'generation' } as const;
const jobIdOf = (event: KnownEvent) => event.metadata.streamId.slice('generation-'.length);

function blankJob(id: string, event: KnownEvent): GenerationJobDocument {
  return {
    _id: id,
    workspaceId: event.metadata.workspaceId,
    _streams: {},
    created: false,
    jobId: id,
    taskId: null,
    turnId: null,
    callId: null,
    provider: null,
    kind: null,
    operation: null,
    phase: null,
    progress: 0,
    lastStatus: null,
    quote: null,
    approval: null,
    chargedMinor: null,
    refundedMinor: null,
    artifactId: null,
    failure: null,
    upstreamJobId: null,
    requestedAt: null,
    submittedAt: null,
    completedAt: null,
    failedAt: null,
    updatedAt: null,
  };
}

const open = (phase: JobPhase | null) => phase === 'requested' || phase === 'awaiting_approval';

/**
 * The job decider's rules, seen from the read side: a job never moves backwards, and an event
 * that could not follow the current phase (a stale writer's duplicate, a report after the end)
 * changes nothing, as in libs/generation/src/job/job-evolve.ts.
 */
function evolveJob(doc: GenerationJobDocument, event: KnownEvent): GenerationJobDocument {
  switch (event.type) {
    case 'GenerationRequested': {
      if (doc.created) return doc;
      const d = event.data;
      const { quoteId, amountMinor, currency, units, unit } = d.quote;
      return {
        ...doc,
        created: true,
        taskId: d.taskId,
        turnId: d.turnId,
        callId: d.callId,
        provider: d.provider,
        kind: d.kind,
        operation: d.operation,
        phase: 'requested',
        quote: { quoteId, amountMinor, currency, units, unit },
        requestedAt: d.requestedAt,
        updatedAt: d.requestedAt,
      };
    }
    case 'GenerationApprovalRequested':
      if (doc.phase !== 'requested' || doc.approval !== null) return doc;
      return { ...doc, phase: 'awaiting_approval', approval: { ...event.data }, updatedAt: event.data.askedAt };
    case 'GenerationSubmitted':
      if (!open(doc.phase)) return doc;
      return {
        ...doc,
        phase: 'submitted',
        upstreamJobId: event.data.upstreamJobId,
        submittedAt: event.data.submittedAt,
        updatedAt: event.data.submittedAt,
      };
    case 'GenerationProgressed': {
      const { progress, status, observedAt } = event.data;
      if (doc.phase !== 'submitted') return doc;
      const last = doc.lastStatus === null ? null : { progress: doc.progress, status: doc.lastStatus };
      if (!progressAdvances(last, progress, status)) return doc;
      return { ...doc, progress, lastStatus: status, updatedAt: observedAt };
    }
    case 'GenerationCompleted':
      if (doc.phase !== 'submitted') return doc;
      return {
        ...doc,
        phase: 'completed',
        progress: 100,
        artifactId: event.data.artifactId,
        completedAt: event.data.completedAt,
        updatedAt: event.data.completedAt,
      };
    case 'GenerationFailed':
      if (!open(doc.phase) && doc.phase !== 'submitted') return doc;
      return {
        ...doc,
        phase: 'failed',
        failure: { reason: event.data.reason, message: event.data.message },
        failedAt: event.data.failedAt,
        updatedAt: event.data.failedAt,
      };
    case 'GenerationCharged':
      if (!doc.created || doc.chargedMinor !== null) return doc;
      return { ...doc, chargedMinor: event.data.amountMinor, updatedAt: event.data.chargedAt };
    case 'GenerationRefunded':
      if (doc.chargedMinor === null || doc.refundedMinor !== null) return doc;
      return { ...doc, refundedMinor: event.data.amountMinor, updatedAt: event.data.refundedAt };
    default:
      return doc;
  }
}

/** `generation_jobs`: one document per job, for a task's jobs, one job, and the active ones of every workspace. */
export const generationJobsProjection: ProjectionDefinition<GenerationJobDocument> = {
  name: GENERATION_JOBS,
  version: 1,
  categories: ['generation'],
  handles: generationJobEventTypes,
  indexes: [
    { fields: { workspaceId: 1, taskId: 1, requestedAt: 1 } },
    // activeJobs: across workspaces, for the generation worker's start-up and compensation polls.
    { fields: { phase: 1, requestedAt: 1 } },
  ],
  ownership: {
    created: fromJob,
    jobId: fromJob,
    taskId: fromJob,
    turnId: fromJob,
    callId: fromJob,
    provider: fromJob,
    kind: fromJob,
    operation: fromJob,
    phase: fromJob,
    progress: fromJob,
    lastStatus: fromJob,
    quote: fromJob,
    approval: fromJob,
    chargedMinor: fromJob,
    refundedMinor: fromJob,
    artifactId: fromJob,
    failure: fromJob,
    upstreamJobId: fromJob,
    requestedAt: fromJob,
    submittedAt: fromJob,
    completedAt: fromJob,
    failedAt: fromJob,
    updatedAt: fromJob,
  },
  documentIds: (event) => [jobIdOf(event)],
  blank: blankJob,
  evolve: evolveJob,
};
