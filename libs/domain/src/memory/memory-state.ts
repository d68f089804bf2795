import type { EvidenceRole, EvidenceSource, ForgettingReport, ForgettingTarget, MemoryScope } from '@lomo/contracts';

/** A BlobStore reference as events carry it (DESIGN.md §4 "Deletable content"). */
export interface MemoryBlobRef {
  hash: string;
  bytes: number;
  contentType: string;
}

export interface EvidenceState {
  evidenceId: string;
  source: EvidenceSource;
  at: string;
  fingerprint: string;
  /** 1 for the stream's first evidence, +1 for each next one (ExtractionSuppressed.throughEvidence). */
  ordinal: number;
  revoked: boolean;
  /** A MemoryExtractionRecorded exists for it. */
  extracted: boolean;
  /** Other tasks holding a copy of its message (MemoryEvidenceCopied): a forgetting reaches them too. */
  copiedTo: readonly string[];
}

export type MemoryVersionStatus = 'current' | 'superseded' | 'purged';

export interface MemoryVersionState {
  versionId: string;
  memoryId: string;
  version: number;
  subject: string;
  kind: 'preference' | 'fact';
  scope: MemoryScope;
  origin: 'explicit' | 'inferred';
  /** Null once purged (its blob is deleted). */
  text: MemoryBlobRef | null;
  fingerprint: string;
  validFrom: string;
  /** Set by a correction: the version stood until then. */
  validTo: string | null;
  /** Detached links are removed from this list. */
  evidence: readonly { evidenceId: string; role: EvidenceRole }[];
  derivedFrom: readonly string[];
  cause: 'extracted' | 'refined' | 'corrected' | 'reextracted';
  status: MemoryVersionStatus;
  supersededBy: string | null;
  supersededReason: 'refined' | 'corrected' | null;
}

/** One memory: a chain of versions about one subject, in one scope. */
export interface MemoryChainState {
  memoryId: string;
  subject: string;
  scope: MemoryScope;
  /** In creation order; the current one (if any) is the last that is not superseded or purged. */
  versionIds: readonly string[];
}

export type ForgettingStatus = 'requested' | 'confirmed' | 'applied' | 'completed' | 'cancelled';

export interface ForgettingState {
  forgettingId: string;
  target: ForgettingTarget;
  evidenceIds: readonly string[];
  requestedBy: string;
  status: ForgettingStatus;
  report: ForgettingReport | null;
}

export interface ProfileVersionState {
  version: number;
  /** Null once purged. */
  text: MemoryBlobRef | null;
  memoryVersionIds: readonly string[];
}

export interface EpisodeSummaryState {
  summaryId: string;
  taskId: string;
  /** Null once invalidated. */
  text: MemoryBlobRef | null;
  evidenceIds: readonly string[];
  memoryVersionIds: readonly string[];
  status: 'current' | 'superseded' | 'invalidated';
}

export interface Suppression {
  fingerprint: string;
  /** Evidence with an ordinal up to this one is covered; later evidence is new. */
  throughEvidence: number;
  forgettingId: string;
}

/** One person's memory in one workspace (the `memory-{workspaceId}.{userId}` stream). */
export interface MemoryState {
  evidence: Readonly<Record<string, EvidenceState>>;
  evidenceCount: number;
  memories: Readonly<Record<string, MemoryChainState>>;
  versions: Readonly<Record<string, MemoryVersionState>>;
  forgettings: Readonly<Record<string, ForgettingState>>;
  suppressions: readonly Suppression[];
  /** Profile versions in order; the last one not purged is current. */
  profiles: readonly ProfileVersionState[];
  summaries: Readonly<Record<string, EpisodeSummaryState>>;
}
