import type { EventDataMap, EvidenceRole, ForgettingReport, MemoryScope } from '@lomo/contracts';
import type { DependencyIndex, EpisodeSummaryState, EvidenceState, MemoryBlobRef, MemoryState } from '@lomo/domain';

type Data<T extends keyof EventDataMap> = EventDataMap[T];

/** A claim re-extracted from the evidence left after a forgetting, before the runner stores its text. */
export interface VersionDraft {
  subject: string;
  kind: 'preference' | 'fact';
  scope: MemoryScope;
  origin: 'explicit' | 'inferred';
  /** The claim's text: it goes to the BlobStore, never into an event. */
  text: string;
  /** sha256 of the normalised claim, as extraction computes it. */
  fingerprint: string;
  evidence: readonly { evidenceId: string; role: EvidenceRole }[];
  /** Defaults to the planner's `now`. */
  validFrom?: string;
}

/**
 * Re-extraction from the remaining valid evidence of the purged chains (the extraction rules or a
 * model, injected). Drafts whose fingerprint is suppressed are dropped by the planner anyway.
 */
export type Reextract = (
  remainingEvidence: readonly EvidenceState[],
  suppressedFingerprints: ReadonlySet<string>,
) => readonly VersionDraft[];

/** A version that stands once the cascade applies: an existing one (text in the BlobStore) or a re-extracted draft. */
export interface StandingMemory {
  versionId: string;
  memoryId: string;
  subject: string;
  kind: 'preference' | 'fact';
  scope: MemoryScope;
  origin: 'explicit' | 'inferred';
  /** The stored text of an existing version (the runner reads it), null for a draft. */
  text: MemoryBlobRef | null;
  /** The text of a re-extracted draft, null for an existing version. */
  draftText: string | null;
}

export type RenderProfile = (standing: readonly StandingMemory[]) => string;

/** Rebuilds a summary from what is left of its sources; null when nothing worth a summary is left. */
export type RenderSummary = (input: {
  summary: EpisodeSummaryState;
  evidence: readonly EvidenceState[];
  memories: readonly StandingMemory[];
}) => string | null;

export interface ForgettingPlanInput {
  state: MemoryState;
  /** Must be confirmed by the person (and not applied yet). */
  forgettingId: string;
  now: string;
  newId: () => string;
  reextract: Reextract;
  renderProfile: RenderProfile;
  renderSummary: RenderSummary;
  /** The state's dependency index when the caller built it already (one linear pass over every version). */
  index?: DependencyIndex;
}

/** A new text the runner stores before building the command; `key` finds its blob ref again. */
export interface PlannedText {
  key: string;
  text: string;
}

export interface PlannedVersion {
  data: Omit<Data<'MemoryVersionCreated'>, 'text'>;
  textKey: string;
}

export interface PlannedProfile {
  data: Omit<Data<'ProfileVersionPublished'>, 'text'>;
  textKey: string;
}

export interface PlannedSummary {
  data: Omit<Data<'EpisodeSummaryWritten'>, 'text'>;
  textKey: string;
}

export type DroppedDraft = {
  fingerprint: string;
  subject: string;
  reason: 'suppressed' | 'known' | 'unusable_evidence' | 'unsupported';
};

/** Everything the cascade does (article §7.3), worked out from the state alone. */
export interface ForgettingPlan {
  forgettingId: string;
  revoked: Data<'EvidenceRevoked'>;
  purged: Data<'MemoryVersionPurged'>[];
  detached: Data<'MemoryEvidenceDetached'>[];
  suppressed: Data<'ExtractionSuppressed'>;
  reextracted: PlannedVersion[];
  dropped: DroppedDraft[];
  profile: PlannedProfile | null;
  purgedProfiles: Data<'ProfileVersionPurged'>[];
  summariesInvalidated: Data<'EpisodeSummaryInvalidated'>[];
  summariesWritten: PlannedSummary[];
  /** New texts to store first: re-extracted versions, the profile, rebuilt summaries. */
  texts: PlannedText[];
  /** Blob hashes to delete: purged versions, purged profiles, invalidated summaries. */
  blobsToDelete: string[];
  /** Recall index entries (keyword and vector) to delete. */
  indexEntriesToDelete: string[];
  /** The report's fields the planner knows; the runner adds the task exclusions. */
  report: Omit<ForgettingReport, 'excluded'>;
}

/** Recall index entry ids (the recall index and this planner agree on them). */
export const memoryIndexEntry = (versionId: string) => `memory:${versionId}`;
export const summaryIndexEntry = (summaryId: string) => `summary:${summaryId}`;
