import { z } from 'zod';
import { blobRef, nonBlank } from './shared';
import { callId, isoDateTime, languageTag, messageId, sha256Hex, taskId, toolName, turnId, userId, uuid } from '../ids';

/**
 * The `memory-{workspaceId}.{userId}` stream (DESIGN.md §3): one person's memory in one workspace,
 * private to that person. Layers (article §7.1): raw messages are evidence; atomic memories are
 * version chains whose every version links its evidence (ORIGIN | REFINE | CONFIRM) and its parent
 * versions; episode summaries say what happened in a piece of work; the profile is small and
 * versioned. Everything that may have to be forgotten (memory text, summaries, profile bodies)
 * lives in the BlobStore and events hold its reference and hash (DESIGN.md §4 "Deletable
 * content"): no event of this stream carries memory text, so forgetting deletes blobs and appends
 * the fact, and the log keeps nothing to forget.
 */

export const memoryId = uuid;
export const memoryVersionId = uuid;
export const evidenceId = uuid;
export const forgettingId = uuid;
export const summaryId = uuid;

/**
 * What a memory is about, as a key without its value ("brand.colour.main", "style.palette"): the
 * chain's identity across versions, so a refinement or correction finds the version it follows.
 */
export const memorySubject = z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+){0,5}$/, 'dotted lowercase key');

/** A preference ("likes muted colours") or a fact ("the brand's main colour is blue"). */
export const memoryKind = z.enum(['preference', 'fact']);

/** Long-term memories follow the person across tasks; task-local ones only inform their task. */
export const memoryScope = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('long_term') }),
  z.strictObject({ kind: z.literal('task'), taskId }),
]);
export type MemoryScope = z.infer<typeof memoryScope>;

/** Whether the person said it in so many words, or the system inferred it (article §7.1). */
export const memoryOrigin = z.enum(['explicit', 'inferred']);

/** How a piece of evidence supports a version (article §7.3). */
export const evidenceRole = z.enum(['ORIGIN', 'REFINE', 'CONFIRM']);
export type EvidenceRole = z.infer<typeof evidenceRole>;

export const evidenceLink = z.strictObject({ evidenceId, role: evidenceRole });

/**
 * Where evidence came from. A message is the person's own words; an observation is something the
 * agent did for the person (the arguments of a generation call) and can only ever support an
 * inferred memory, never an explicit one.
 */
export const evidenceSource = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('message'), messageId, taskId: taskId.optional(), language: languageTag }),
  z.strictObject({ kind: z.literal('observation'), taskId, turnId, callId, tool: toolName }),
]);
export type EvidenceSource = z.infer<typeof evidenceSource>;

/**
 * A piece of evidence entered memory's reach. Its text stays where it was said (the main line, the
 * turn's ledger); the fingerprint (sha256 of the normalised text) lets a forgetting suppress
 * re-extraction of the same words.
 */
/**
 * Another task holds a copy of this evidence's message: an operator's fork of its task (or any
 * delivery of it to another task that names its sender). A forgetting of the evidence excludes it from that task's prompts too (the
 * exclusion follows recorded provenance, never text).
 */
export const MemoryEvidenceCopied = z.strictObject({ evidenceId, taskId });

export const MemoryEvidenceRecorded = z.strictObject({
  evidenceId,
  source: evidenceSource,
  at: isoDateTime,
  fingerprint: sha256Hex,
});

/**
 * What one extraction decided for each candidate, one by one (article §7.4): one bad candidate
 * never drops the others. `detail` is a reason code or short reason, never memory text.
 */
export const extractionOutcome = z.enum([
  'created',
  'refined',
  'confirmed',
  'corrected',
  'ignored',
  'unsupported',
  'conflicting',
  'malformed',
  'suppressed',
]);
export type ExtractionOutcome = z.infer<typeof extractionOutcome>;

export const MemoryExtractionRecorded = z.strictObject({
  evidenceId,
  extractor: z.enum(['offline_rules', 'model']),
  /** Candidates the extractor proposed (a malformed one counts). */
  candidates: z.number().int().min(0).max(100),
  outcomes: z
    .array(
      z.strictObject({
        index: z.number().int().min(0).max(99),
        outcome: extractionOutcome,
        memoryId: memoryId.optional(),
        versionId: memoryVersionId.optional(),
        detail: z.string().max(300).optional(),
      }),
    )
    .max(100),
});

/**
 * A new version of a memory: the first (cause `extracted`), a refinement (the previous version is
 * superseded, its evidence carried with the new REFINE evidence), a correction with validity (the
 * previous one stays answerable for its time), or a re-extraction after a forgetting from the
 * remaining evidence. The text is in the BlobStore; `fingerprint` is the sha256 of the normalised
 * claim, which a forgetting may suppress.
 */
export const MemoryVersionCreated = z.strictObject({
  memoryId,
  versionId: memoryVersionId,
  version: z.number().int().min(1),
  subject: memorySubject,
  kind: memoryKind,
  scope: memoryScope,
  origin: memoryOrigin,
  text: blobRef,
  fingerprint: sha256Hex,
  validFrom: isoDateTime,
  validTo: isoDateTime.optional(),
  evidence: z.array(evidenceLink).min(1).max(1000),
  derivedFrom: z.array(memoryVersionId).max(100),
  cause: z.enum(['extracted', 'refined', 'corrected', 'reextracted']),
});

/** Later evidence confirmed a version as it stands: a CONFIRM link, no new version. */
export const MemoryVersionConfirmed = z.strictObject({ memoryId, versionId: memoryVersionId, evidenceId });

/**
 * A version was followed by another. `refined`: it no longer stands. `corrected`: it stood until
 * `validTo` and is still the answer for that time (article §7.2, Zep's validity intervals).
 */
export const MemoryVersionSuperseded = z.strictObject({
  memoryId,
  versionId: memoryVersionId,
  byVersionId: memoryVersionId,
  reason: z.enum(['refined', 'corrected']),
  validTo: isoDateTime.optional(),
});

/** What a person asked to forget: a memory (the evidence behind its versions) or given evidence. */
export const forgettingTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('memory'), memoryId }),
  z.strictObject({ kind: z.literal('evidence'), evidenceIds: z.array(evidenceId).min(1).max(100) }),
]);
export type ForgettingTarget = z.infer<typeof forgettingTarget>;

/** A forgetting was asked for; nothing happens until the person confirms it (DESIGN.md §5). */
export const ForgettingRequested = z.strictObject({
  forgettingId,
  target: forgettingTarget,
  /** The evidence whose eligibility the forgetting will revoke, fixed when asked. */
  evidenceIds: z.array(evidenceId).min(1).max(1000),
  requestedBy: userId,
});

export const ForgettingConfirmed = z.strictObject({ forgettingId, confirmedBy: userId });
export const ForgettingCancelled = z.strictObject({ forgettingId, by: userId });

/** The evidence may support no memory again (its message stays in the chat record). */
export const EvidenceRevoked = z.strictObject({ forgettingId, evidenceIds: z.array(evidenceId).min(1).max(1000) });

/** A version that depended on revoked evidence: its text blob is deleted. */
export const MemoryVersionPurged = z.strictObject({ forgettingId, memoryId, versionId: memoryVersionId });

/** A CONFIRM-only link to revoked evidence was removed; the version stands on its other evidence. */
export const MemoryEvidenceDetached = z.strictObject({
  forgettingId,
  memoryId,
  versionId: memoryVersionId,
  evidenceId,
});

/**
 * Claims (fingerprints of normalised claims, and of the forgotten evidence's text) that extraction
 * from evidence recorded up to this point must not produce again. Evidence recorded later, such as
 * the person saying it anew, is not suppressed.
 */
export const ExtractionSuppressed = z.strictObject({
  forgettingId,
  fingerprints: z.array(sha256Hex).min(1).max(1000),
  /** Evidence recorded so far (its ordinal, counted from 1 in the stream): later evidence is not covered. */
  throughEvidence: z.number().int().min(0),
});

/** A new profile version: a small text made from the standing explicit long-term memories. */
export const ProfileVersionPublished = z.strictObject({
  version: z.number().int().min(1),
  text: blobRef,
  memoryVersionIds: z.array(memoryVersionId).max(100),
  reason: z.enum(['memories_changed', 'forgetting']),
  forgettingId: forgettingId.optional(),
});

/** An old profile body that named forgotten content: its blob is deleted, it is never shown again. */
export const ProfileVersionPurged = z.strictObject({ version: z.number().int().min(1), forgettingId });

/** What happened in a piece of collaboration (a task), with what it was made from. */
export const EpisodeSummaryWritten = z.strictObject({
  summaryId,
  taskId,
  text: blobRef,
  evidenceIds: z.array(evidenceId).max(1000),
  memoryVersionIds: z.array(memoryVersionId).max(1000),
  /** The summary this one replaces (a rebuild after a forgetting, or a later episode). */
  supersedes: summaryId.optional(),
});

export const EpisodeSummaryInvalidated = z.strictObject({ summaryId, forgettingId });

/** One task's context that a forgetting excluded by provenance (copied onto the task stream). */
export const excludedContext = z.strictObject({
  taskId,
  messageIds: z.array(messageId).max(1000),
  steps: z.array(z.strictObject({ turnId, step: z.number().int().min(1) })).max(10_000),
  segmentIds: z.array(uuid).max(1000),
  /** Excluded steps' tool calls whose brief or checklist plan is left out (absent when none). */
  calls: z.array(callId).max(10_000).optional(),
});

/**
 * What a forgetting did, as its runner recorded it; a checker compares it with the blob store, the
 * indexes and later prompts without using the cascade's code.
 */
export const forgettingReport = z.strictObject({
  revokedEvidenceIds: z.array(evidenceId).max(1000),
  purgedVersionIds: z.array(memoryVersionId).max(10_000),
  reextractedVersionIds: z.array(memoryVersionId).max(10_000),
  detached: z.array(z.strictObject({ versionId: memoryVersionId, evidenceId })).max(10_000),
  profileVersion: z.number().int().min(1).nullable(),
  purgedProfileVersions: z.array(z.number().int().min(1)).max(10_000),
  summariesInvalidated: z.array(summaryId).max(10_000),
  summariesRebuilt: z.array(summaryId).max(10_000),
  indexEntriesDeleted: z.array(nonBlank(200)).max(10_000),
  suppressions: z.array(sha256Hex).max(1000),
  blobsDeleted: z.array(sha256Hex).max(100_000),
  excluded: z.array(excludedContext).max(10_000),
});
export type ForgettingReport = z.infer<typeof forgettingReport>;

export const ForgettingCompleted = z.strictObject({ forgettingId, report: forgettingReport });
