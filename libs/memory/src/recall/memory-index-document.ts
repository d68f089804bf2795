import type { EpisodeSummaryState, MemoryState, MemoryVersionState } from '@lomo/domain';

/** Whose memory: one person in one workspace (the `memory-{workspaceId}.{userId}` stream). */
export interface PersonRef {
  workspaceId: string;
  userId: string;
}

/**
 * The search-index scope of one person. Every document of a person lives in this scope and only
 * this scope is searched for them, so one person's memories are never candidates for another,
 * even in a shared workspace (issue 18 item 4).
 */
export const personScope = (person: PersonRef): string => `${person.workspaceId}.${person.userId}`;

export const versionDocumentId = (versionId: string): string => `memory:${versionId}`;
export const summaryDocumentId = (summaryId: string): string => `summary:${summaryId}`;

/**
 * What recall filters on, kept beside the index (SearchDocument carries only text and vector), so
 * filtering a candidate is one map lookup and never a read of the memory stream or a blob.
 * Times are epoch milliseconds so the temporal check is a number comparison.
 */
export interface MemoryIndexEntry {
  /** The SearchDocument id: `memory:{versionId}` or `summary:{summaryId}`. */
  id: string;
  kind: 'memory' | 'summary';
  /** For a summary: its summaryId (a summary is its own one-version chain). */
  memoryId: string;
  versionId: string;
  version: number;
  subject: string;
  origin: 'explicit' | 'inferred';
  scope: 'long_term' | 'task';
  /** The task a task-local memory (or a summary) belongs to; null for long-term memories. */
  taskId: string | null;
  status: 'current' | 'superseded';
  validFrom: number;
  /** Stated end of validity (a correction), or null. */
  validTo: number | null;
  /**
   * When the version stopped being the chain's answer: its validTo, else (superseded by a
   * refinement) the successor's validFrom, else null. A temporal query at `t` takes the version
   * whose [validFrom, validUntil) holds `t`.
   */
  validUntil: number | null;
  /** The BlobStore hash of the text; recall reads the text from there (a purged blob is skipped). */
  blobHash: string;
}

/** Summaries are about what happened, not a claim of the person: never `explicit`. */
export const SUMMARY_SUBJECT = 'episode.summary';

const ms = (iso: string) => Date.parse(iso);

/** The entry of a version, or null when it has nothing to index (purged, no text). */
export function entryFromVersion(version: MemoryVersionState, state?: MemoryState): MemoryIndexEntry | null {
  if (version.status === 'purged' || version.text === null) return null;
  const successor = version.supersededBy ? state?.versions[version.supersededBy] : undefined;
  const validTo = version.validTo === null ? null : ms(version.validTo);
  const validUntil =
    validTo ?? (version.status === 'superseded' ? (successor ? ms(successor.validFrom) : ms(version.validFrom)) : null);
  return {
    id: versionDocumentId(version.versionId),
    kind: 'memory',
    memoryId: version.memoryId,
    versionId: version.versionId,
    version: version.version,
    subject: version.subject,
    origin: version.origin,
    scope: version.scope.kind,
    taskId: version.scope.kind === 'task' ? version.scope.taskId : null,
    status: version.status,
    validFrom: ms(version.validFrom),
    validTo,
    validUntil,
    blobHash: version.text.hash,
  };
}

/**
 * The entry of a summary, or null unless it is current with text. `at` is when it was written
 * (the state does not keep it; the indexer passes its clock's time), so a temporal query before
 * that does not recall it.
 */
export function entryFromSummary(summary: EpisodeSummaryState, writtenAt: number): MemoryIndexEntry | null {
  if (summary.status !== 'current' || summary.text === null) return null;
  return {
    id: summaryDocumentId(summary.summaryId),
    kind: 'summary',
    memoryId: summary.summaryId,
    versionId: summary.summaryId,
    version: 1,
    subject: SUMMARY_SUBJECT,
    origin: 'inferred',
    scope: 'task',
    taskId: summary.taskId,
    status: 'current',
    validFrom: writtenAt,
    validTo: null,
    validUntil: null,
    blobHash: summary.text.hash,
  };
}

/** Same document for the index: the text (blob) is unchanged, so no new embedding is needed. */
export const sameText = (a: MemoryIndexEntry, b: MemoryIndexEntry): boolean => a.blobHash === b.blobHash;
