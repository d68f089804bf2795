import type { KnownEvent, KnownEventOf } from '../engine/known-event';
import type { MemoryDocument, MemoryVersionEntry } from './memory.document';

// A memory's version chain, folded by the decider's rules (libs/domain/src/memory): a version is
// created current, a refinement or correction supersedes its parent, a purge deletes its text
// for good (a purged version never becomes current or superseded again), a confirmation adds a
// CONFIRM link without a new version, a detachment removes one link.

function versionOf(event: KnownEventOf<'MemoryVersionCreated'>): MemoryVersionEntry {
  const d = event.data;
  return {
    versionId: d.versionId,
    version: d.version,
    subject: d.subject,
    kind: d.kind,
    scopeKind: d.scope.kind,
    taskId: d.scope.kind === 'task' ? d.scope.taskId : null,
    origin: d.origin,
    cause: d.cause,
    status: 'current',
    text: { hash: d.text.hash, bytes: d.text.bytes, contentType: d.text.contentType },
    fingerprint: d.fingerprint,
    validFrom: d.validFrom,
    validTo: d.validTo ?? null,
    evidence: d.evidence.map((l) => ({ evidenceId: l.evidenceId, role: l.role })),
    detached: [],
    derivedFrom: [...d.derivedFrom],
    supersededBy: null,
    supersededReason: null,
    createdAt: event.metadata.occurredAt,
    purgedBy: null,
  };
}

const mapVersion = (
  document: MemoryDocument,
  versionId: string,
  change: (version: MemoryVersionEntry) => MemoryVersionEntry,
): MemoryDocument => {
  const index = document.versions.findIndex((v) => v.versionId === versionId);
  if (index < 0) return document;
  const versions = [...document.versions];
  versions[index] = change(versions[index]);
  return { ...document, versions };
};

export function evolveMemoryChain(document: MemoryDocument, event: KnownEvent): MemoryDocument {
  const touched = { ...document, changedSeq: event.metadata.revision, updatedAt: event.metadata.occurredAt };
  switch (event.type) {
    case 'MemoryVersionCreated': {
      // A version id is created once (the decider's rule); a second one changes nothing.
      if (document.versions.some((v) => v.versionId === event.data.versionId)) return document;
      const version = versionOf(event);
      return {
        ...touched,
        createdAt: document.createdAt ?? event.metadata.occurredAt,
        subject: version.subject,
        kind: version.kind,
        origin: version.origin,
        scopeKind: version.scopeKind,
        taskId: version.taskId,
        versions: [...document.versions, version].sort((a, b) => a.version - b.version),
      };
    }
    case 'MemoryVersionSuperseded': {
      const { versionId, byVersionId, reason, validTo } = event.data;
      return mapVersion(touched, versionId, (v) =>
        v.status === 'purged'
          ? v
          : {
              ...v,
              status: 'superseded',
              supersededBy: byVersionId,
              supersededReason: reason,
              validTo: validTo ?? v.validTo,
            },
      );
    }
    case 'MemoryVersionConfirmed': {
      const { versionId, evidenceId } = event.data;
      return mapVersion(touched, versionId, (v) =>
        v.evidence.some((l) => l.evidenceId === evidenceId && l.role === 'CONFIRM')
          ? v
          : { ...v, evidence: [...v.evidence, { evidenceId, role: 'CONFIRM' }] },
      );
    }
    case 'MemoryEvidenceDetached': {
      const { versionId, evidenceId, forgettingId } = event.data;
      return mapVersion(touched, versionId, (v) => ({
        ...v,
        evidence: v.evidence.filter((l) => !(l.evidenceId === evidenceId && l.role === 'CONFIRM')),
        detached: v.detached.some((l) => l.evidenceId === evidenceId)
          ? v.detached
          : [...v.detached, { evidenceId, forgettingId }],
      }));
    }
    case 'MemoryVersionPurged': {
      const { versionId, forgettingId } = event.data;
      return mapVersion(touched, versionId, (v) => ({ ...v, status: 'purged', text: null, purgedBy: forgettingId }));
    }
    default:
      return document;
  }
}

/** What a list shows of a memory: the latest standing version, and the chain's status from its versions. */
export function deriveMemoryChain(document: MemoryDocument): MemoryDocument {
  const current = document.versions.filter((v) => v.status === 'current').at(-1) ?? null;
  const status =
    document.versions.length === 0
      ? null
      : current !== null
        ? 'current'
        : document.versions.every((v) => v.status === 'purged')
          ? 'purged'
          : 'superseded';
  const currentVersionId = current?.versionId ?? null;
  return status === document.status && currentVersionId === document.currentVersionId
    ? document
    : { ...document, status, currentVersionId };
}
