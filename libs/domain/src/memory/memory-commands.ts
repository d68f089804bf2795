import type { EventDataMap, ForgettingReport, ForgettingTarget } from '@lomo/contracts';

type Data<T extends keyof EventDataMap> = EventDataMap[T];

/** A message or observation enters memory's reach; a repeat with the same id is a no-op. */
export type RecordEvidence = { type: 'RecordEvidence' } & Data<'MemoryEvidenceRecorded'>;

/** A task other than the evidence's own holds a copy of its message (a fork, a move); a repeat is a no-op. */
export type NoteEvidenceCopy = { type: 'NoteEvidenceCopy' } & Data<'MemoryEvidenceCopied'>;

/**
 * What one extraction decided (libs/memory's extraction planner), applied at once: new versions,
 * the versions they supersede, confirmations, and the per-candidate outcome record. Once per
 * evidence: a repeat is a no-op. The decider checks the plan against the state (parents current,
 * evidence recorded and not revoked, an explicit version backed by a message, versions numbered).
 */
export type RecordExtraction = {
  type: 'RecordExtraction';
  extraction: Data<'MemoryExtractionRecorded'>;
  versions: readonly Data<'MemoryVersionCreated'>[];
  supersessions: readonly Data<'MemoryVersionSuperseded'>[];
  confirmations: readonly Data<'MemoryVersionConfirmed'>[];
};

/**
 * The person corrects a memory ("that's wrong, it's green now"): a new version valid from `at`,
 * the old one superseded as `corrected` with validTo = `at` (it stays answerable for its time).
 */
export type CorrectMemory = {
  type: 'CorrectMemory';
  memoryId: string;
  version: Data<'MemoryVersionCreated'>;
  at: string;
};

export type RequestForgetting = {
  type: 'RequestForgetting';
  forgettingId: string;
  target: ForgettingTarget;
  requestedBy: string;
};
export type ConfirmForgetting = { type: 'ConfirmForgetting'; forgettingId: string; confirmedBy: string };
export type CancelForgetting = { type: 'CancelForgetting'; forgettingId: string; by: string };

/**
 * The cascade's plan for a confirmed forgetting (libs/memory's forgetting planner), appended at
 * once: revocation, purges, detached links, suppressions, re-extracted versions, the new profile
 * and purged old ones, invalidated and rebuilt summaries. Once per forgetting.
 */
export type ApplyForgetting = {
  type: 'ApplyForgetting';
  forgettingId: string;
  revoked: Data<'EvidenceRevoked'>;
  purged: readonly Data<'MemoryVersionPurged'>[];
  detached: readonly Data<'MemoryEvidenceDetached'>[];
  suppressed: Data<'ExtractionSuppressed'> | null;
  reextracted: readonly Data<'MemoryVersionCreated'>[];
  profile: Data<'ProfileVersionPublished'> | null;
  purgedProfiles: readonly Data<'ProfileVersionPurged'>[];
  summariesInvalidated: readonly Data<'EpisodeSummaryInvalidated'>[];
  summariesWritten: readonly Data<'EpisodeSummaryWritten'>[];
};

/** The runner finished the effects outside the stream (blobs, indexes, task exclusions). */
export type CompleteForgetting = { type: 'CompleteForgetting'; forgettingId: string; report: ForgettingReport };

export type PublishProfile = { type: 'PublishProfile' } & Data<'ProfileVersionPublished'>;
export type WriteEpisodeSummary = { type: 'WriteEpisodeSummary' } & Data<'EpisodeSummaryWritten'>;

export type MemoryCommand =
  | RecordEvidence
  | NoteEvidenceCopy
  | RecordExtraction
  | CorrectMemory
  | RequestForgetting
  | ConfirmForgetting
  | CancelForgetting
  | ApplyForgetting
  | CompleteForgetting
  | PublishProfile
  | WriteEpisodeSummary;
