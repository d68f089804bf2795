import type { PublishProfile, WriteEpisodeSummary } from './memory-commands';
import { MemoryErrors } from './memory-errors';
import type { MemoryEvent } from './memory-events';
import { invalid, refuse } from './memory-guards';
import { lastProfileVersion } from './memory-queries';
import type { MemoryState } from './memory-state';

// The profile and the episode summaries are derived texts (article §7.1): each lists what it was
// made from, so a forgetting finds them by provenance.

/**
 * The profile holds only standing explicit long-term memories: an inferred guess never becomes a
 * stated preference there. Forgetting publishes its own versions (decide-apply-forgetting.ts).
 */
export function publishProfile(command: PublishProfile, state: MemoryState): MemoryEvent[] {
  const { type: _type, ...data } = command;
  const known = state.profiles.find((p) => p.version === data.version);
  if (known) {
    if (known.text?.hash === data.text.hash) return [];
    refuse(MemoryErrors.VERSION_CONFLICT, `Profile version ${data.version} exists`);
  }
  if (data.version !== lastProfileVersion(state) + 1)
    refuse(MemoryErrors.VERSION_CONFLICT, `The profile continues with version ${lastProfileVersion(state) + 1}`);
  if (data.reason === 'forgetting' || data.forgettingId !== undefined) invalid('Only a forgetting publishes for one');
  if (new Set(data.memoryVersionIds).size !== data.memoryVersionIds.length) invalid('A version listed twice');
  for (const id of data.memoryVersionIds) {
    const v = state.versions[id];
    if (!v) refuse(MemoryErrors.VERSION_NOT_FOUND, `No version ${id}`);
    if (v.status !== 'current') refuse(MemoryErrors.VERSION_NOT_CURRENT, `Version ${id} does not stand`);
    if (v.origin !== 'explicit') refuse(MemoryErrors.INFERRED_NOT_EXPLICIT, `Inferred version ${id} in the profile`);
    if (v.scope.kind !== 'long_term') invalid(`Task-local version ${id} in the profile`);
  }
  return [{ type: 'ProfileVersionPublished', data }];
}

/** Written once per id; made only from usable evidence and versions not purged. */
export function writeEpisodeSummary(command: WriteEpisodeSummary, state: MemoryState): MemoryEvent[] {
  const { type: _type, ...data } = command;
  const known = state.summaries[data.summaryId];
  if (known) {
    if (known.text?.hash === data.text.hash) return [];
    refuse(MemoryErrors.VERSION_CONFLICT, `Summary ${data.summaryId} exists`);
  }
  if (data.supersedes !== undefined) {
    const old = state.summaries[data.supersedes];
    if (!old) refuse(MemoryErrors.SUMMARY_NOT_FOUND, `No summary ${data.supersedes}`);
    if (old.status !== 'current' || old.taskId !== data.taskId)
      invalid(`Summary ${data.supersedes} is not the current summary of task ${data.taskId}`);
  }
  for (const id of data.evidenceIds) {
    if (!state.evidence[id]) refuse(MemoryErrors.EVIDENCE_UNKNOWN, `Evidence ${id} was never recorded`);
    if (state.evidence[id].revoked) refuse(MemoryErrors.EVIDENCE_REVOKED, `Evidence ${id} was revoked`);
  }
  for (const id of data.memoryVersionIds) {
    if (!state.versions[id]) refuse(MemoryErrors.VERSION_NOT_FOUND, `No version ${id}`);
    if (state.versions[id].status === 'purged') refuse(MemoryErrors.VERSION_NOT_CURRENT, `Version ${id} was purged`);
  }
  return [{ type: 'EpisodeSummaryWritten', data }];
}
