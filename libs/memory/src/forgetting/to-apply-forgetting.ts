import type { ApplyForgetting, MemoryBlobRef } from '@lomo/domain';
import type { ForgettingPlan } from './forgetting-plan';

/**
 * The command for a plan once the runner stored its new texts (`stored` maps each PlannedText key
 * to its blob ref). Storing first means a crash leaves at most an orphan blob, never an event
 * pointing at a missing one.
 */
export function toApplyForgetting(plan: ForgettingPlan, stored: ReadonlyMap<string, MemoryBlobRef>): ApplyForgetting {
  const ref = (key: string): MemoryBlobRef => {
    const found = stored.get(key);
    if (!found) throw new Error(`The text ${key} of forgetting ${plan.forgettingId} was not stored`);
    return { hash: found.hash, bytes: found.bytes, contentType: found.contentType };
  };
  return {
    type: 'ApplyForgetting',
    forgettingId: plan.forgettingId,
    revoked: plan.revoked,
    purged: plan.purged,
    detached: plan.detached,
    suppressed: plan.suppressed,
    reextracted: plan.reextracted.map((v) => ({ ...v.data, text: ref(v.textKey) })),
    profile: plan.profile ? { ...plan.profile.data, text: ref(plan.profile.textKey) } : null,
    purgedProfiles: plan.purgedProfiles,
    summariesInvalidated: plan.summariesInvalidated,
    summariesWritten: plan.summariesWritten.map((s) => ({ ...s.data, text: ref(s.textKey) })),
  };
}
