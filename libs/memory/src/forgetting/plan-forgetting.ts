import { DomainError, MemoryErrors, dependencyIndex, forgettingScope } from '@lomo/domain';
import { memoryIndexEntry, summaryIndexEntry, type ForgettingPlan, type ForgettingPlanInput } from './forgetting-plan';
import { planProfile, planSummaries, StandingAfter } from './plan-derived';
import { planReextraction } from './plan-reextraction';

const MAX_SUPPRESSIONS = 1000;

/**
 * The forgetting cascade of article §7.3 as a pure planner: revoke the evidence → find the
 * versions standing on it → walk the derivation graph → purge them → re-extract from the remaining
 * valid evidence (the forgotten claims suppressed) → update the profile and the summaries → list
 * the blobs and index entries to delete. A thin runner stores the new texts, appends the command
 * (toApplyForgetting), deletes what the plan lists and completes the forgetting with its report.
 * One dependency index per call keeps it linear in the links (benchmarked at 10 000 memories).
 */
export function planForgetting(input: ForgettingPlanInput): ForgettingPlan {
  const { state, forgettingId } = input;
  const forgetting = state.forgettings[forgettingId];
  if (!forgetting) throw new DomainError(MemoryErrors.FORGETTING_NOT_FOUND, `No forgetting ${forgettingId}`);
  if (forgetting.status !== 'confirmed')
    throw new DomainError(MemoryErrors.FORGETTING_NOT_CONFIRMED, `Forgetting ${forgettingId} is ${forgetting.status}`);

  const revoked = new Set(forgetting.evidenceIds);
  const scope = forgettingScope(state, forgetting.evidenceIds, input.index ?? dependencyIndex(state));
  const purgedIds = new Set(scope.purged.map((v) => v.versionId));

  // The purged claims, and the forgotten words themselves, for evidence recorded up to now.
  const fingerprints = [
    ...new Set([
      ...scope.purged.map((v) => v.fingerprint),
      ...forgetting.evidenceIds.map((id) => state.evidence[id].fingerprint),
    ]),
  ];
  if (fingerprints.length > MAX_SUPPRESSIONS)
    throw new DomainError(MemoryErrors.VALIDATION_FAILED, 'Too much to forget at once: forget it in parts');
  const suppressedSet = new Set(fingerprints);

  const reextraction = planReextraction({
    state,
    purged: scope.purged,
    chainsLosingCurrent: scope.chainsLosingCurrent,
    revoked,
    suppressed: suppressedSet,
    now: input.now,
    newId: input.newId,
    reextract: input.reextract,
  });
  const standing = new StandingAfter(state, purgedIds, reextraction.versions, reextraction.texts);
  const profile = planProfile(state, scope, standing, forgettingId, input.renderProfile);
  const summaries = planSummaries(state, scope, standing, revoked, input.newId, input.renderSummary);

  const blobsToDelete = [
    ...new Set([
      ...scope.purged.flatMap((v) => (v.text ? [v.text.hash] : [])),
      ...scope.profilesToPurge.flatMap((p) => (p.text ? [p.text.hash] : [])),
      ...scope.summariesToInvalidate.flatMap((s) => (s.text ? [s.text.hash] : [])),
    ]),
  ];
  const indexEntriesToDelete = [
    ...scope.purged.map((v) => memoryIndexEntry(v.versionId)),
    ...scope.summariesToInvalidate.map((s) => summaryIndexEntry(s.summaryId)),
  ];
  const detached = scope.detached.map((d) => ({ forgettingId, ...d }));

  return {
    forgettingId,
    revoked: { forgettingId, evidenceIds: [...forgetting.evidenceIds] },
    purged: scope.purged.map((v) => ({ forgettingId, memoryId: v.memoryId, versionId: v.versionId })),
    detached,
    suppressed: { forgettingId, fingerprints, throughEvidence: state.evidenceCount },
    reextracted: reextraction.versions,
    dropped: reextraction.dropped,
    profile: profile?.profile ?? null,
    purgedProfiles: scope.profilesToPurge.map((p) => ({ version: p.version, forgettingId })),
    summariesInvalidated: scope.summariesToInvalidate.map((s) => ({ summaryId: s.summaryId, forgettingId })),
    summariesWritten: summaries.summaries,
    texts: [...reextraction.texts, ...(profile ? [profile.text] : []), ...summaries.texts],
    blobsToDelete,
    indexEntriesToDelete,
    report: {
      revokedEvidenceIds: [...forgetting.evidenceIds],
      purgedVersionIds: [...purgedIds],
      reextractedVersionIds: reextraction.versions.map((v) => v.data.versionId),
      detached: scope.detached.map(({ versionId, evidenceId }) => ({ versionId, evidenceId })),
      profileVersion: profile?.profile.data.version ?? null,
      purgedProfileVersions: scope.profilesToPurge.map((p) => p.version),
      summariesInvalidated: scope.summariesToInvalidate.map((s) => s.summaryId),
      summariesRebuilt: summaries.summaries.map((s) => s.data.summaryId),
      indexEntriesDeleted: indexEntriesToDelete,
      suppressions: fingerprints,
      blobsDeleted: blobsToDelete,
    },
  };
}
