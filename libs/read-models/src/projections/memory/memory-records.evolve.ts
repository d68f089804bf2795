import type { KnownEvent } from '../engine/known-event';
import type { ForgettingEntry, MemoryDocument, MemoryTextRef } from './memory.document';

// Evidence, the profile, forgettings and episode summaries: each document folds the events that
// name it. Repeats change nothing (a version, a forgetting or a summary is written once), so a
// duplicate that slipped past the engine's revisions still gives the same document.

const ref = (text: MemoryTextRef): MemoryTextRef => ({
  hash: text.hash,
  bytes: text.bytes,
  contentType: text.contentType,
});

function evolveEvidence(document: MemoryDocument, event: KnownEvent): MemoryDocument {
  const evidence = document.evidence;
  switch (event.type) {
    case 'MemoryEvidenceRecorded': {
      if (evidence !== null) return document;
      const { evidenceId, source, at, fingerprint } = event.data;
      const observation = source.kind === 'observation' ? source : null;
      return {
        ...document,
        createdAt: event.metadata.occurredAt,
        evidence: {
          evidenceId,
          sourceKind: source.kind,
          messageId: source.kind === 'message' ? source.messageId : null,
          taskId: source.taskId ?? null,
          turnId: observation?.turnId ?? null,
          callId: observation?.callId ?? null,
          tool: observation?.tool ?? null,
          language: source.kind === 'message' ? source.language : null,
          at,
          fingerprint,
          revokedBy: null,
          extraction: null,
        },
      };
    }
    case 'MemoryExtractionRecorded': {
      // Once per evidence (the decider's rule): the first record stands.
      if (evidence === null || evidence.extraction !== null) return document;
      const { extractor, candidates, outcomes } = event.data;
      const extraction = {
        extractor,
        candidates,
        // Outcome codes and ids only: a `detail` may paraphrase a candidate, which a forgetting
        // could not reach here.
        outcomes: outcomes.map((o) => ({
          index: o.index,
          outcome: o.outcome,
          memoryId: o.memoryId ?? null,
          versionId: o.versionId ?? null,
        })),
      };
      return { ...document, evidence: { ...evidence, extraction } };
    }
    case 'EvidenceRevoked':
      return evidence === null || evidence.revokedBy !== null
        ? document
        : { ...document, evidence: { ...evidence, revokedBy: event.data.forgettingId } };
    default:
      return document;
  }
}

function evolveProfile(document: MemoryDocument, event: KnownEvent): MemoryDocument {
  const versions = document.profile?.versions ?? [];
  switch (event.type) {
    case 'ProfileVersionPublished': {
      const { version, text, memoryVersionIds, reason, forgettingId } = event.data;
      if (versions.some((v) => v.version === version)) return document;
      const entry = {
        version,
        text: ref(text),
        memoryVersionIds: [...memoryVersionIds],
        reason,
        forgettingId: forgettingId ?? null,
        publishedAt: event.metadata.occurredAt,
        purged: false,
        purgedBy: null,
      };
      return {
        ...document,
        createdAt: document.createdAt ?? event.metadata.occurredAt,
        profile: { versions: [...versions, entry].sort((a, b) => a.version - b.version) },
      };
    }
    case 'ProfileVersionPurged': {
      const { version, forgettingId } = event.data;
      return {
        ...document,
        profile: {
          versions: versions.map((v) =>
            v.version === version ? { ...v, text: null, purged: true, purgedBy: v.purgedBy ?? forgettingId } : v,
          ),
        },
      };
    }
    default:
      return document;
  }
}

function evolveForgetting(document: MemoryDocument, event: KnownEvent): MemoryDocument {
  const f = document.forgetting;
  const at = event.metadata.occurredAt;
  const set = (change: Partial<ForgettingEntry>): MemoryDocument =>
    f === null ? document : { ...document, forgetting: { ...f, ...change } };
  switch (event.type) {
    case 'ForgettingRequested': {
      if (f !== null) return document;
      const { forgettingId, target, evidenceIds, requestedBy } = event.data;
      return {
        ...document,
        createdAt: at,
        forgetting: {
          forgettingId,
          target:
            target.kind === 'memory'
              ? { kind: 'memory', memoryId: target.memoryId }
              : { kind: 'evidence', evidenceIds: [...target.evidenceIds] },
          evidenceIds: [...evidenceIds],
          requestedBy,
          requestedAt: at,
          status: 'requested',
          confirmedBy: null,
          confirmedAt: null,
          cancelledBy: null,
          cancelledAt: null,
          appliedAt: null,
          completedAt: null,
          report: null,
        },
      };
    }
    case 'ForgettingConfirmed':
      return f?.status === 'requested'
        ? set({ status: 'confirmed', confirmedBy: event.data.confirmedBy, confirmedAt: at })
        : document;
    case 'ForgettingCancelled':
      return f?.status === 'requested'
        ? set({ status: 'cancelled', cancelledBy: event.data.by, cancelledAt: at })
        : document;
    case 'EvidenceRevoked':
      return f?.status === 'confirmed' ? set({ status: 'applied', appliedAt: at }) : document;
    case 'ForgettingCompleted':
      return f === null || f.status === 'completed' || f.status === 'cancelled'
        ? document
        : set({ status: 'completed', completedAt: at, report: event.data.report });
    default:
      return document;
  }
}

function evolveSummary(document: MemoryDocument, event: KnownEvent): MemoryDocument {
  const s = document.summary;
  switch (event.type) {
    case 'EpisodeSummaryWritten': {
      // The event names this summary, or the one it replaces.
      if (document.entityId !== event.data.summaryId)
        return s === null || s.status !== 'current'
          ? document
          : { ...document, summary: { ...s, status: 'superseded' } };
      if (s !== null) return document;
      const { summaryId, taskId, text, evidenceIds, memoryVersionIds, supersedes } = event.data;
      return {
        ...document,
        createdAt: event.metadata.occurredAt,
        taskId,
        summary: {
          summaryId,
          taskId,
          text: ref(text),
          evidenceIds: [...evidenceIds],
          memoryVersionIds: [...memoryVersionIds],
          supersedes: supersedes ?? null,
          status: 'current',
          writtenAt: event.metadata.occurredAt,
          invalidatedBy: null,
        },
      };
    }
    case 'EpisodeSummaryInvalidated':
      return s === null || s.status === 'invalidated'
        ? document
        : { ...document, summary: { ...s, status: 'invalidated', text: null, invalidatedBy: event.data.forgettingId } };
    default:
      return document;
  }
}

/** One event applied to a document that is not a memory chain, by its doc type. */
export function evolveMemoryRecord(document: MemoryDocument, event: KnownEvent): MemoryDocument {
  const evolved =
    document.docType === 'evidence'
      ? evolveEvidence(document, event)
      : document.docType === 'profile'
        ? evolveProfile(document, event)
        : document.docType === 'forgetting'
          ? evolveForgetting(document, event)
          : document.docType === 'summary'
            ? evolveSummary(document, event)
            : document;
  return evolved === document
    ? document
    : { ...evolved, changedSeq: event.metadata.revision, updatedAt: event.metadata.occurredAt };
}
