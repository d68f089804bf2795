import type { ForgettingReport as ForgettingReportData } from '@lomo/contracts';
import type { ForgettingState } from '@lomo/domain';
import type { ForgettingImpact as Impact } from '@lomo/application';
import type { ForgettingEntry, MemoryDocument, MemoryOwner, MemoryVersionEntry } from '@lomo/read-models';
import type { Forgetting, ForgettingImpact, ForgettingReport, ForgettingTarget } from '../types/forgetting.types';
import type { Memory, MemoryVersion, Profile } from '../types/memory.types';

export function mapMemoryVersion(owner: MemoryOwner, memoryId: string, v: MemoryVersionEntry): MemoryVersion {
  return {
    id: v.versionId,
    memoryId,
    version: v.version,
    subject: v.subject,
    kind: v.kind,
    scope: v.scopeKind,
    taskId: v.taskId,
    origin: v.origin,
    cause: v.cause,
    status: v.status,
    purged: v.status === 'purged',
    validFrom: v.validFrom,
    validTo: v.validTo,
    supersededBy: v.supersededBy,
    supersededReason: v.supersededReason,
    derivedFrom: [...v.derivedFrom],
    detachedEvidenceIds: v.detached.map((d) => d.evidenceId),
    createdAt: v.createdAt,
    textRef: v.text === null ? null : { ...v.text },
    owner,
    links: v.evidence.map((l) => ({ evidenceId: l.evidenceId, role: l.role })),
  };
}

export function mapMemory(owner: MemoryOwner, document: MemoryDocument): Memory {
  const memoryId = document.entityId ?? '';
  const versions = document.versions.map((v) => mapMemoryVersion(owner, memoryId, v));
  return {
    id: memoryId,
    subject: document.subject ?? '',
    kind: document.kind ?? 'fact',
    scope: document.scopeKind ?? 'long_term',
    taskId: document.taskId,
    origin: document.origin ?? 'inferred',
    status: document.status ?? 'superseded',
    createdAt: document.createdAt ?? '',
    updatedAt: document.updatedAt ?? '',
    currentVersion: versions.find((v) => v.id === document.currentVersionId) ?? null,
    versions,
  };
}

export function mapProfile(document: MemoryDocument): Profile | null {
  const versions = document.profile?.versions ?? [];
  if (versions.length === 0) return null;
  // The last version not purged is in force (the decider's rule); a purged body is never shown.
  const current = versions.filter((v) => !v.purged).at(-1) ?? null;
  return {
    version: current?.version ?? null,
    memoryVersionIds: current === null ? [] : [...current.memoryVersionIds],
    earlierVersions: versions.filter((v) => current === null || v.version < current.version).map((v) => v.version),
    versions: versions.map((v) => ({
      version: v.version,
      purged: v.purged,
      publishedAt: v.publishedAt,
      afterForgetting: v.reason === 'forgetting',
    })),
    textRef: current?.text === null || current === null ? null : { ...current.text },
  };
}

function mapReport(report: ForgettingReportData): ForgettingReport {
  return {
    revokedEvidenceIds: [...report.revokedEvidenceIds],
    purgedVersionIds: [...report.purgedVersionIds],
    reextractedVersionIds: [...report.reextractedVersionIds],
    detached: report.detached.map((d) => ({ memoryId: null, versionId: d.versionId, evidenceId: d.evidenceId })),
    profileVersion: report.profileVersion,
    purgedProfileVersions: [...report.purgedProfileVersions],
    summariesInvalidated: [...report.summariesInvalidated],
    summariesRebuilt: [...report.summariesRebuilt],
    indexEntriesDeleted: [...report.indexEntriesDeleted],
    suppressions: [...report.suppressions],
    blobsDeleted: report.blobsDeleted.length,
    excluded: report.excluded.map((e) => ({
      taskId: e.taskId,
      messageIds: [...e.messageIds],
      steps: e.steps.map((s) => ({ turnId: s.turnId, step: s.step })),
      segmentIds: [...e.segmentIds],
      calls: [...(e.calls ?? [])],
    })),
  };
}

const mapTarget = (target: ForgettingEntry['target']): ForgettingTarget =>
  target.kind === 'memory'
    ? { kind: 'memory', memoryId: target.memoryId, evidenceIds: [] }
    : { kind: 'evidence', memoryId: null, evidenceIds: [...target.evidenceIds] };

/** A forgetting as the read model shows it. */
export function mapForgetting(f: ForgettingEntry): Forgetting {
  return {
    id: f.forgettingId,
    status: f.status,
    target: mapTarget(f.target),
    evidenceIds: [...f.evidenceIds],
    requestedAt: f.requestedAt,
    confirmedAt: f.confirmedAt,
    cancelledAt: f.cancelledAt,
    completedAt: f.completedAt,
    report: f.report === null ? null : mapReport(f.report),
  };
}

/** A forgetting as a mutation left it on the stream (times come from the read model). */
export function mapForgettingState(f: ForgettingState): Forgetting {
  return {
    id: f.forgettingId,
    status: f.status,
    target: mapTarget(f.target),
    evidenceIds: [...f.evidenceIds],
    requestedAt: null,
    confirmedAt: null,
    cancelledAt: null,
    completedAt: null,
    report: f.report === null ? null : mapReport(f.report),
  };
}

export const mapForgettingImpact = (impact: Impact): ForgettingImpact => ({
  evidenceIds: [...impact.evidenceIds],
  purgedVersions: impact.purgedVersions.map((v) => ({ ...v })),
  memoriesLosingCurrent: [...impact.memoriesLosingCurrent],
  detached: impact.detached.map((d) => ({ ...d })),
  profileAffected: impact.profileAffected,
  profileVersionsPurged: [...impact.profileVersionsPurged],
  summariesInvalidated: [...impact.summariesInvalidated],
});
