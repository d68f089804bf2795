import type { MemoryIndexEntry } from './memory-index-document';

export interface EligibilityQuery {
  taskId: string;
  /** Epoch ms of a temporal question, or undefined for "standing now". */
  at: number | undefined;
  now: number;
  /** Whether episode summaries of other tasks may be recalled (see IndexedMemoryRecallOptions). */
  summariesAcrossTasks: boolean;
}

/**
 * Whether an indexed document may be recalled for this query (issue 18 item 4):
 * - task scope: a task-local memory only in its own task;
 * - without `at`: only standing versions (current, not past a stated end of validity);
 * - with `at`: the version whose [validFrom, validUntil) holds `at`, current or superseded, so a
 *   corrected fact stays answerable for its time (article §7.2) and at most one version of a
 *   chain qualifies.
 * Person isolation is not decided here: each person is a separate index scope.
 */
export function isEligible(entry: MemoryIndexEntry, query: EligibilityQuery): boolean {
  if (entry.taskId !== null && entry.taskId !== query.taskId) {
    if (entry.kind === 'memory' || !query.summariesAcrossTasks) return false;
  }
  if (query.at === undefined) {
    return entry.status === 'current' && (entry.validTo === null || entry.validTo > query.now);
  }
  return entry.validFrom <= query.at && (entry.validUntil === null || query.at < entry.validUntil);
}
