import type { UpstreamStatus } from '../provider';
import type { ProgressStatus } from './job-events';

/** The minimum time between two persisted progress events of one job. */
export const PROGRESS_PERSIST_INTERVAL_MS = 1000;

const statusRank: Record<ProgressStatus, number> = { queued: 0, processing: 1 };
const terminal: ReadonlySet<UpstreamStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Forward only: more progress, or the same progress with a later status (queued → processing). */
export function progressAdvances(
  last: { progress: number; status: ProgressStatus } | null,
  progress: number,
  status: ProgressStatus,
): boolean {
  if (last === null) return true;
  if (progress !== last.progress) return progress > last.progress;
  return statusRank[status] > statusRank[last.status];
}

/**
 * Coalescing of progress ticks, applied by whoever turns a callback or a poll into a
 * RecordProgress command: a video job can report many times a second, and each report would
 * otherwise be an event on the job stream, a projection write and a subscription push.
 *
 * - a terminal report (completed, failed, cancelled) always goes through: it ends the job;
 * - the first report of a job goes through;
 * - a report that would not move the job forward (less or equal progress, an earlier status) is
 *   dropped, as the decider would ignore it anyway;
 * - otherwise at most one per job per PROGRESS_PERSIST_INTERVAL_MS, measured from the last
 *   persisted one (`lastPersisted.at`, the `observedAt` of its GenerationProgressed).
 *
 * A dropped tick is not lost for good: the next one carries the progress so far, and the
 * terminal report always lands. Pure: `now` is given.
 */
export function shouldPersistProgress(
  lastPersisted: { progress: number; status: ProgressStatus; at: string | Date } | null,
  incoming: { progress: number; status: UpstreamStatus },
  now: string | Date,
): boolean {
  if (terminal.has(incoming.status)) return true;
  if (lastPersisted === null) return true;
  const status = incoming.status as ProgressStatus;
  if (!progressAdvances(lastPersisted, incoming.progress, status)) return false;
  const since = new Date(now).getTime() - new Date(lastPersisted.at).getTime();
  return since >= PROGRESS_PERSIST_INTERVAL_MS;
}
