import type { EventDataMap } from '@lomo/contracts';
import type { ProjectionDocument } from '../engine/projection-definition';

type Data<T extends keyof EventDataMap> = EventDataMap[T];

/** A BlobStore reference as the events carry it; null once the blob was deleted (purged). */
export type MemoryTextRef = { hash: string; bytes: number; contentType: string };

export type MemoryDocType = 'memory' | 'evidence' | 'profile' | 'forgetting' | 'summary';
export type MemoryVersionStatus = 'current' | 'superseded' | 'purged';
export type MemoryScopeKind = 'long_term' | 'task';

/** One version of a memory, inline in its memory's document. */
export type MemoryVersionEntry = {
  versionId: string;
  version: number;
  subject: string;
  kind: Data<'MemoryVersionCreated'>['kind'];
  scopeKind: MemoryScopeKind;
  taskId: string | null;
  origin: Data<'MemoryVersionCreated'>['origin'];
  cause: Data<'MemoryVersionCreated'>['cause'];
  status: MemoryVersionStatus;
  /** Null once purged: the blob is deleted and the read model keeps no reference to it. */
  text: MemoryTextRef | null;
  fingerprint: string;
  validFrom: string;
  /** Set by a correction (the version stood until then) or created with one. */
  validTo: string | null;
  /** Standing links; a detached CONFIRM link leaves this list for `detached`. */
  evidence: Array<{ evidenceId: string; role: Data<'MemoryVersionCreated'>['evidence'][number]['role'] }>;
  detached: Array<{ evidenceId: string; forgettingId: string }>;
  derivedFrom: string[];
  supersededBy: string | null;
  supersededReason: Data<'MemoryVersionSuperseded'>['reason'] | null;
  createdAt: string;
  purgedBy: string | null;
};

/** Evidence as the memory stream recorded it: where it came from, never its text. */
export type MemoryEvidenceEntry = {
  evidenceId: string;
  sourceKind: 'message' | 'observation';
  messageId: string | null;
  taskId: string | null;
  turnId: string | null;
  callId: string | null;
  tool: string | null;
  language: string | null;
  at: string;
  fingerprint: string;
  revokedBy: string | null;
  /** What the extraction from it decided, per candidate (outcome codes, no text). */
  extraction: {
    extractor: Data<'MemoryExtractionRecorded'>['extractor'];
    candidates: number;
    outcomes: Array<{ index: number; outcome: string; memoryId: string | null; versionId: string | null }>;
  } | null;
};

export type ProfileVersionEntry = {
  version: number;
  /** Null once purged. */
  text: MemoryTextRef | null;
  memoryVersionIds: string[];
  reason: Data<'ProfileVersionPublished'>['reason'];
  forgettingId: string | null;
  publishedAt: string;
  purged: boolean;
  purgedBy: string | null;
};

export type ForgettingEntry = {
  forgettingId: string;
  target: { kind: 'memory'; memoryId: string } | { kind: 'evidence'; evidenceIds: string[] };
  evidenceIds: string[];
  requestedBy: string;
  requestedAt: string;
  /** requested → confirmed → applied (the cascade's stream writes) → completed; or cancelled. */
  status: 'requested' | 'confirmed' | 'applied' | 'completed' | 'cancelled';
  confirmedBy: string | null;
  confirmedAt: string | null;
  cancelledBy: string | null;
  cancelledAt: string | null;
  appliedAt: string | null;
  completedAt: string | null;
  report: Data<'ForgettingCompleted'>['report'] | null;
};

export type EpisodeSummaryEntry = {
  summaryId: string;
  taskId: string;
  /** Null once invalidated (its blob is deleted by the forgetting). */
  text: MemoryTextRef | null;
  evidenceIds: string[];
  memoryVersionIds: string[];
  supersedes: string | null;
  status: 'current' | 'superseded' | 'invalidated';
  writtenAt: string;
  invalidatedBy: string | null;
};

/**
 * `memories`: one person's memory in one workspace, from their `memory-{workspaceId}.{userId}`
 * stream alone. One collection, one document per memory (its versions inline), per piece of
 * evidence, per forgetting, per episode summary, and one for the profile (its versions inline).
 * `_id` is `{workspaceId}.{userId}:{docType}:{id}` (the profile: `{workspaceId}.{userId}:profile`),
 * so a document is found only through its person: privacy by key, and two people's streams can
 * never write one document. The sections of other doc types are null.
 */
export type MemoryDocument = ProjectionDocument & {
  docType: MemoryDocType;
  userId: string;
  /** memoryId, evidenceId, forgettingId or summaryId; null for the profile. */
  entityId: string | null;
  /** The stream revision of the latest event applied to the document: lists sort on it, newest first. */
  changedSeq: number;
  createdAt: string | null;
  updatedAt: string | null;
  // memory
  /** The chain's subject, kind, origin and scope, from its latest version. */
  subject: string | null;
  kind: Data<'MemoryVersionCreated'>['kind'] | null;
  origin: Data<'MemoryVersionCreated'>['origin'] | null;
  scopeKind: MemoryScopeKind | null;
  taskId: string | null;
  versions: MemoryVersionEntry[];
  /** Derived: current while a version stands, purged when every version is, superseded otherwise. */
  status: MemoryVersionStatus | null;
  /** Derived: the standing version (the latest current one), null when none stands. */
  currentVersionId: string | null;
  // the other doc types
  evidence: MemoryEvidenceEntry | null;
  profile: { versions: ProfileVersionEntry[] } | null;
  forgetting: ForgettingEntry | null;
  summary: EpisodeSummaryEntry | null;
};
