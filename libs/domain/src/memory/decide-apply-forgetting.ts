import type { EventDataMap } from '@lomo/contracts';
import type { ApplyForgetting } from './memory-commands';
import { MemoryErrors } from './memory-errors';
import type { MemoryEvent } from './memory-events';
import {
  checkNewVersion,
  forgettingOf,
  invalid,
  newBatch,
  oneStandingPerMemory,
  refuse,
  standsAfter,
  type VersionBatch,
} from './memory-guards';
import { dependencyIndex, forgettingScope, lastProfileVersion, type ForgettingScope } from './memory-queries';
import type { MemoryState } from './memory-state';

// The cascade of article §7.3, appended at once. The planner (libs/memory/src/forgetting) works
// it out; the decider recomputes what it must reach from the state and refuses a plan that
// leaves anything standing on the revoked evidence, or purges more than that.

const sameSet = (a: readonly (string | number)[], b: readonly (string | number)[]) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === a.length && left.size === right.size && [...left].every((x) => right.has(x));
};

function incomplete(what: string): never {
  refuse(MemoryErrors.CASCADE_INCOMPLETE, `The cascade does not match what the forgetting reaches: ${what}`);
}

function checkNamesForgetting(command: ApplyForgetting): void {
  const id = command.forgettingId;
  const parts = [
    command.revoked,
    ...command.purged,
    ...command.detached,
    ...(command.suppressed ? [command.suppressed] : []),
    ...command.purgedProfiles,
    ...command.summariesInvalidated,
  ];
  if (parts.some((p) => p.forgettingId !== id)) invalid(`Every part of the cascade names forgetting ${id}`);
}

function checkReach(command: ApplyForgetting, state: MemoryState, scope: ForgettingScope): void {
  if (
    !sameSet(
      command.purged.map((p) => p.versionId),
      scope.purged.map((v) => v.versionId),
    )
  )
    incomplete('purged');
  if (command.purged.some((p) => state.versions[p.versionId].memoryId !== p.memoryId)) invalid('Purged memory ids');
  const link = (d: { versionId: string; evidenceId: string }) => `${d.versionId}/${d.evidenceId}`;
  if (!sameSet(command.detached.map(link), scope.detached.map(link))) incomplete('detached links');
  if (
    !sameSet(
      command.purgedProfiles.map((p) => p.version),
      scope.profilesToPurge.map((p) => p.version),
    )
  )
    incomplete('purged profiles');
  if (
    !sameSet(
      command.summariesInvalidated.map((s) => s.summaryId),
      scope.summariesToInvalidate.map((s) => s.summaryId),
    )
  )
    incomplete('invalidated summaries');
  if (scope.profileAffected && command.profile === null) incomplete('the profile in force lists a purged version');
}

/** The forgotten claims and the forgotten words may not be extracted again from earlier evidence. */
function checkSuppression(command: ApplyForgetting, state: MemoryState, scope: ForgettingScope): Set<string> {
  const s = command.suppressed;
  if (s === null) incomplete('no suppression');
  const fingerprints = new Set(s.fingerprints);
  const needed = [
    ...scope.purged.map((v) => v.fingerprint),
    ...command.revoked.evidenceIds.map((id) => state.evidence[id].fingerprint),
  ];
  if (needed.some((f) => !fingerprints.has(f))) incomplete('suppressed fingerprints');
  const latest = Math.max(...command.revoked.evidenceIds.map((id) => state.evidence[id].ordinal));
  if (s.throughEvidence < latest || s.throughEvidence > state.evidenceCount)
    invalid('Suppression covers the evidence recorded so far');
  return fingerprints;
}

function checkProfile(profile: EventDataMap['ProfileVersionPublished'], state: MemoryState, batch: VersionBatch) {
  if (profile.version !== lastProfileVersion(state) + 1)
    refuse(MemoryErrors.VERSION_CONFLICT, `The profile continues with version ${lastProfileVersion(state) + 1}`);
  if (profile.reason !== 'forgetting') invalid('A profile published by a forgetting names it');
  for (const id of profile.memoryVersionIds) {
    if (!standsAfter(state, batch, id)) refuse(MemoryErrors.VERSION_NOT_CURRENT, `Version ${id} does not stand`);
    const v = batch.created.get(id) ?? state.versions[id];
    if (v.origin !== 'explicit') refuse(MemoryErrors.INFERRED_NOT_EXPLICIT, `Inferred version ${id} in the profile`);
    if (v.scope.kind !== 'long_term') invalid(`Task-local version ${id} in the profile`);
  }
}

function checkRebuiltSummaries(command: ApplyForgetting, state: MemoryState, batch: VersionBatch): void {
  const invalidated = new Set(command.summariesInvalidated.map((s) => s.summaryId));
  const rebuilt = new Set<string>();
  for (const s of command.summariesWritten) {
    if (state.summaries[s.summaryId]) refuse(MemoryErrors.VERSION_CONFLICT, `Summary ${s.summaryId} exists`);
    const old = s.supersedes === undefined ? undefined : state.summaries[s.supersedes];
    if (!old || !invalidated.has(old.summaryId) || old.status !== 'current' || old.taskId !== s.taskId)
      invalid('A rebuilt summary replaces a current summary this forgetting invalidates, in the same task');
    if (rebuilt.has(old.summaryId)) invalid(`Summary ${old.summaryId} rebuilt twice`);
    rebuilt.add(old.summaryId);
    for (const id of s.evidenceIds)
      if (!state.evidence[id] || state.evidence[id].revoked || batch.revoked.has(id))
        refuse(MemoryErrors.EVIDENCE_REVOKED, `A rebuilt summary uses evidence ${id} that is not usable`);
    for (const id of s.memoryVersionIds) {
      const known = batch.created.has(id) || (state.versions[id] && state.versions[id].status !== 'purged');
      if (!known || batch.purged.has(id))
        refuse(MemoryErrors.VERSION_NOT_CURRENT, `A rebuilt summary uses version ${id}`);
    }
  }
}

export function applyForgetting(command: ApplyForgetting, state: MemoryState): MemoryEvent[] {
  const forgetting = forgettingOf(state, command.forgettingId);
  if (forgetting.status === 'applied' || forgetting.status === 'completed') return [];
  if (forgetting.status !== 'confirmed')
    refuse(MemoryErrors.FORGETTING_NOT_CONFIRMED, `Forgetting ${command.forgettingId} is ${forgetting.status}`);
  checkNamesForgetting(command);
  if (!sameSet(command.revoked.evidenceIds, forgetting.evidenceIds))
    invalid('The revoked evidence is the evidence fixed when the forgetting was asked for');
  const scope = forgettingScope(state, forgetting.evidenceIds, dependencyIndex(state));
  checkReach(command, state, scope);
  const suppressed = checkSuppression(command, state, scope);

  const batch = newBatch({
    revoked: new Set(forgetting.evidenceIds),
    purged: new Set(scope.purged.map((v) => v.versionId)),
    suppressed,
  });
  for (const v of command.reextracted) {
    if (v.cause !== 'reextracted') invalid('A forgetting creates only re-extracted versions');
    checkNewVersion(state, batch, v);
  }
  oneStandingPerMemory(state, batch, new Set());
  if (command.profile) checkProfile(command.profile, state, batch);
  checkRebuiltSummaries(command, state, batch);

  const { suppressed: suppression, profile } = command;
  return [
    { type: 'EvidenceRevoked', data: command.revoked },
    ...command.purged.map((data): MemoryEvent => ({ type: 'MemoryVersionPurged', data })),
    ...command.detached.map((data): MemoryEvent => ({ type: 'MemoryEvidenceDetached', data })),
    ...(suppression ? [{ type: 'ExtractionSuppressed' as const, data: suppression }] : []),
    ...command.reextracted.map((data): MemoryEvent => ({ type: 'MemoryVersionCreated', data })),
    // Published before the old ones are purged, so a profile is in force at every position.
    ...(profile ? [{ type: 'ProfileVersionPublished' as const, data: profile }] : []),
    ...command.purgedProfiles.map((data): MemoryEvent => ({ type: 'ProfileVersionPurged', data })),
    ...command.summariesInvalidated.map((data): MemoryEvent => ({ type: 'EpisodeSummaryInvalidated', data })),
    ...command.summariesWritten.map((data): MemoryEvent => ({ type: 'EpisodeSummaryWritten', data })),
  ];
}
