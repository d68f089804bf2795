import type { CancelForgetting, CompleteForgetting, ConfirmForgetting, RequestForgetting } from './memory-commands';
import { MemoryErrors } from './memory-errors';
import type { MemoryEvent } from './memory-events';
import { forgettingOf, invalid, refuse } from './memory-guards';
import { forgettableEvidence } from './memory-queries';
import type { MemoryState } from './memory-state';

// Forgetting always waits for the person's confirmation (DESIGN.md §5): requested → confirmed →
// applied (the cascade, decide-apply-forgetting.ts) → completed (effects outside the stream done),
// or requested → cancelled. A repeat of a step already taken decides nothing.

const MAX_EVIDENCE = 1000;

/** The evidence to revoke is fixed when asked, so the person confirms exactly what will be forgotten. */
function evidenceToRevoke(command: RequestForgetting, state: MemoryState): string[] {
  const { target } = command;
  if (target.kind === 'memory') {
    if (!state.memories[target.memoryId]) refuse(MemoryErrors.MEMORY_NOT_FOUND, `No memory ${target.memoryId}`);
    return forgettableEvidence(state, target.memoryId);
  }
  const ids = [...new Set(target.evidenceIds)];
  for (const id of ids)
    if (!state.evidence[id]) refuse(MemoryErrors.EVIDENCE_UNKNOWN, `Evidence ${id} was never recorded`);
  return ids.filter((id) => !state.evidence[id].revoked);
}

export function requestForgetting(command: RequestForgetting, state: MemoryState): MemoryEvent[] {
  const { forgettingId, target, requestedBy } = command;
  const known = state.forgettings[forgettingId];
  if (known) {
    if (known.requestedBy === requestedBy && JSON.stringify(known.target) === JSON.stringify(target)) return [];
    refuse(MemoryErrors.FORGETTING_CONFLICT, `Forgetting ${forgettingId} was asked for another target`);
  }
  const evidenceIds = evidenceToRevoke(command, state);
  if (evidenceIds.length === 0) refuse(MemoryErrors.NOTHING_TO_FORGET, 'No evidence left to revoke');
  if (evidenceIds.length > MAX_EVIDENCE) invalid(`At most ${MAX_EVIDENCE} pieces of evidence per forgetting`);
  return [{ type: 'ForgettingRequested', data: { forgettingId, target, evidenceIds, requestedBy } }];
}

function byRequester(requestedBy: string, by: string): void {
  if (requestedBy !== by) refuse(MemoryErrors.NOT_REQUESTER, 'Only the person who asked may confirm or cancel');
}

export function confirmForgetting(command: ConfirmForgetting, state: MemoryState): MemoryEvent[] {
  const forgetting = forgettingOf(state, command.forgettingId);
  byRequester(forgetting.requestedBy, command.confirmedBy);
  if (forgetting.status === 'cancelled')
    refuse(MemoryErrors.FORGETTING_NOT_CONFIRMABLE, `Forgetting ${command.forgettingId} was cancelled`);
  if (forgetting.status !== 'requested') return [];
  return [
    { type: 'ForgettingConfirmed', data: { forgettingId: command.forgettingId, confirmedBy: command.confirmedBy } },
  ];
}

export function cancelForgetting(command: CancelForgetting, state: MemoryState): MemoryEvent[] {
  const forgetting = forgettingOf(state, command.forgettingId);
  byRequester(forgetting.requestedBy, command.by);
  if (forgetting.status === 'cancelled') return [];
  if (forgetting.status !== 'requested')
    refuse(MemoryErrors.FORGETTING_NOT_CANCELLABLE, `Forgetting ${command.forgettingId} is ${forgetting.status}`);
  return [{ type: 'ForgettingCancelled', data: { forgettingId: command.forgettingId, by: command.by } }];
}

export function completeForgetting(command: CompleteForgetting, state: MemoryState): MemoryEvent[] {
  const forgetting = forgettingOf(state, command.forgettingId);
  if (forgetting.status === 'completed') return [];
  if (forgetting.status !== 'applied')
    refuse(MemoryErrors.FORGETTING_NOT_APPLIED, `Forgetting ${command.forgettingId} is ${forgetting.status}`);
  const revoked = new Set(command.report.revokedEvidenceIds);
  if (forgetting.evidenceIds.some((id) => !revoked.has(id)))
    invalid('The report must list every piece of evidence the forgetting revoked');
  return [{ type: 'ForgettingCompleted', data: { forgettingId: command.forgettingId, report: command.report } }];
}
