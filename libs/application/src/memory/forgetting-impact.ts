import { forgettingScope, type MemoryState } from '@lomo/domain';
import type { ForgettingImpact } from './memory-commands';

/**
 * What confirming a forgetting of this evidence will reach, by the rules the decider checks the
 * cascade against (libs/domain's forgettingScope), shown to the person before they confirm.
 */
export function forgettingImpact(state: MemoryState, evidenceIds: readonly string[]): ForgettingImpact {
  const scope = forgettingScope(state, evidenceIds);
  return {
    evidenceIds: [...evidenceIds],
    purgedVersions: scope.purged.map((v) => ({ memoryId: v.memoryId, versionId: v.versionId, version: v.version })),
    memoriesLosingCurrent: [...scope.chainsLosingCurrent],
    detached: scope.detached.map((d) => ({ ...d })),
    profileAffected: scope.profileAffected,
    profileVersionsPurged: scope.profilesToPurge.map((p) => p.version),
    summariesInvalidated: scope.summariesToInvalidate.map((s) => s.summaryId),
  };
}
