import type { Caller } from '@lomo/auth';
import { streams, type EventEnvelope } from '@lomo/contracts';
import { generationJobId } from '@lomo/generation';
import { mayShow } from '../access/operator-access';
import type { InspectionSources } from './inspection-sources';
import type { InspectedGenerationJob } from './inspection.types';
import { foldEvents, foldForCategory } from './stream-folds';
import type { TaskRecord } from './task-record';

/** Account events that concern one job, by its id or its quote's. */
const ACCOUNT_JOB_EVENTS = new Set([
  'QuoteIssued',
  'FundsReserved',
  'ReservationReleased',
  'JobCharged',
  'JobRefunded',
]);

export interface TaskJobs {
  jobs: InspectedGenerationJob[];
  /** The jobs' streams and their account entries, for the timeline. */
  events: EventEnvelope[];
}

/**
 * The paid media jobs of a task and their money. A job's id derives from (workspace, call id)
 * (libs/generation/src/job/job-ids.ts), so the task's tool calls and the jobs its turns waited
 * on name every candidate without scanning the log; the account stream is authoritative for money.
 */
export async function generationJobsOf(
  sources: { events: Pick<InspectionSources['events'], 'readStream'> },
  caller: Caller,
  record: Pick<TaskRecord, 'taskId' | 'workspaceId' | 'turns'>,
): Promise<TaskJobs> {
  const candidates = new Set<string>();
  for (const { events } of record.turns)
    for (const e of events) {
      const d = e.data as { toolCallIntents?: Array<{ callId: string }>; on?: { kind: string; jobIds?: string[] } };
      if (e.type === 'ModelStepCommitted')
        for (const intent of d.toolCallIntents ?? [])
          candidates.add(generationJobId(record.workspaceId, intent.callId));
      if (e.type === 'TurnWaiting' && d.on?.kind === 'jobs') for (const id of d.on.jobIds ?? []) candidates.add(id);
    }
  const jobStreams = (
    await Promise.all(
      [...candidates].map(async (jobId) => ({
        jobId,
        events: (await sources.events.readStream(streams.generation(jobId))).filter((e) => mayShow(caller, e)),
      })),
    )
  ).filter(({ events }) => {
    const requested = events.find((e) => e.type === 'GenerationRequested');
    return requested !== undefined && (requested.data as { taskId: string }).taskId === record.taskId;
  });
  if (jobStreams.length === 0) return { jobs: [], events: [] };

  const jobIds = new Set(jobStreams.map((j) => j.jobId));
  const quoteIds = new Set(
    jobStreams.flatMap(({ events }) =>
      events
        .filter((e) => e.type === 'GenerationRequested')
        .map((e) => (e.data as { quote: { quoteId: string } }).quote.quoteId),
    ),
  );
  const account = (await sources.events.readStream(streams.account(record.workspaceId))).filter(
    (e) =>
      mayShow(caller, e) &&
      ((ACCOUNT_JOB_EVENTS.has(e.type) && jobIds.has((e.data as { jobId: string }).jobId)) ||
        (e.type === 'QuoteApproved' && quoteIds.has((e.data as { quoteId: string }).quoteId))),
  );

  const fold = foldForCategory('generation')!;
  const jobs = jobStreams.map(({ jobId, events }): InspectedGenerationJob => {
    const state = foldEvents(fold, events) as {
      status: string;
      callId?: string;
      provider?: string;
      quote?: { currency: string };
    };
    const entries = account.filter((e) => (e.data as { jobId?: string }).jobId === jobId);
    const sum = (type: string) =>
      entries
        .filter((e) => e.type === type)
        .reduce((total, e) => total + (e.data as { amountMinor: number }).amountMinor, 0);
    return {
      jobId,
      callId: state.callId ?? null,
      provider: state.provider ?? null,
      status: state.status,
      quote: state.quote ?? null,
      chargedMinor: sum('JobCharged'),
      refundedMinor: sum('JobRefunded'),
      currency: state.quote?.currency ?? null,
    };
  });
  return { jobs, events: [...jobStreams.flatMap((j) => j.events), ...account] };
}
