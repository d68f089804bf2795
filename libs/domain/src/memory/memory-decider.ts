import { assertNever, type Decider } from '../decider';
import { applyForgetting } from './decide-apply-forgetting';
import { correctMemory, noteEvidenceCopy, recordEvidence, recordExtraction } from './decide-extraction';
import { cancelForgetting, completeForgetting, confirmForgetting, requestForgetting } from './decide-forgetting';
import { publishProfile, writeEpisodeSummary } from './decide-profile';
import type { MemoryCommand } from './memory-commands';
import type { MemoryEvent } from './memory-events';
import { evolveMemory, foldMemory, initialMemoryState } from './memory-evolve';
import type { MemoryState } from './memory-state';

export function decideMemory(command: MemoryCommand, state: MemoryState): MemoryEvent[] {
  switch (command.type) {
    case 'RecordEvidence':
      return recordEvidence(command, state);
    case 'NoteEvidenceCopy':
      return noteEvidenceCopy(command, state);
    case 'RecordExtraction':
      return recordExtraction(command, state);
    case 'CorrectMemory':
      return correctMemory(command, state);
    case 'RequestForgetting':
      return requestForgetting(command, state);
    case 'ConfirmForgetting':
      return confirmForgetting(command, state);
    case 'CancelForgetting':
      return cancelForgetting(command, state);
    case 'ApplyForgetting':
      return applyForgetting(command, state);
    case 'CompleteForgetting':
      return completeForgetting(command, state);
    case 'PublishProfile':
      return publishProfile(command, state);
    case 'WriteEpisodeSummary':
      return writeEpisodeSummary(command, state);
    default:
      return assertNever(command, 'memory command');
  }
}

/** One person's memory in one workspace: evidence, version chains, forgetting, profile, summaries. */
export const memoryDecider: Decider<MemoryCommand, MemoryEvent, MemoryState> = {
  initialState: initialMemoryState,
  decide: decideMemory,
  evolve: evolveMemory,
  foldAll: foldMemory,
};
