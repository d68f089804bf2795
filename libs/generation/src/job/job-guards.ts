import { assertNever } from '@lomo/domain';
import { GenerationJobErrors, GenerationJobRefusedError, type GenerationJobErrorCode } from './job-errors';
import type { ExistingJob, GenerationJobState } from './job-state';

export function refuse(code: GenerationJobErrorCode, message: string, details: Record<string, unknown> = {}): never {
  throw new GenerationJobRefusedError(code, message, details);
}

export function invalid(message: string, details: Record<string, unknown> = {}): never {
  return refuse(GenerationJobErrors.INVALID_COMMAND, message, details);
}

export function existing(state: GenerationJobState): ExistingJob {
  if (state.status === 'none') return refuse(GenerationJobErrors.JOB_NOT_FOUND, 'The generation job does not exist');
  return state;
}

/** Terminal jobs never move again: a late report about them is a no-op, not an error. */
export const isFinal = (job: ExistingJob): boolean => job.status === 'completed' || job.status === 'failed';

/** The upstream id, once recorded; a failed job may have none. */
export function upstreamIdOf(job: ExistingJob): string | null {
  switch (job.status) {
    case 'requested':
      return null;
    case 'submitted':
    case 'completed':
    case 'failed':
      return job.upstreamJobId;
    default:
      return assertNever(job, 'generation job');
  }
}

/** Command times are ISO 8601 instants; they are normalized to UTC `...Z` in events. */
export function instant(at: string, what = 'at'): string {
  const ms = Date.parse(at);
  if (!Number.isFinite(ms)) invalid(`${what} is not an ISO 8601 instant: ${at}`);
  return new Date(ms).toISOString();
}

export const isWholeMinor = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
