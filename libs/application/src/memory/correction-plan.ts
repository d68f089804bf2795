import {
  DomainError,
  MemoryErrors,
  currentVersion,
  lastVersionNumber,
  type MemoryBlobRef,
  type MemoryCommand,
  type MemoryState,
} from '@lomo/domain';
import { evidenceFingerprint, memoryFingerprint } from '@lomo/memory';

/** What a correction is made of once its text is in the BlobStore. */
export interface CorrectionInput {
  memoryId: string;
  versionId: string;
  evidenceId: string;
  /** The correction as evidence: the person's own words, said through the API. */
  messageId: string;
  language: string;
  text: string;
  value: string;
  textRef: MemoryBlobRef;
  validFrom: string;
  at: string;
}

/**
 * The refusals a correction meets before anything is written (its text included): an unknown
 * memory, one with no standing version, a validity that starts before the version it ends.
 * The decider checks the same again on the state it appends at.
 */
export function checkCorrectable(state: MemoryState, memoryId: string, validFrom: string): void {
  if (!state.memories[memoryId]) throw new DomainError(MemoryErrors.MEMORY_NOT_FOUND, `No memory ${memoryId}`);
  const current = currentVersion(state, memoryId);
  if (!current)
    throw new DomainError(MemoryErrors.VERSION_NOT_CURRENT, `Memory ${memoryId} has no standing version to correct`);
  if (Date.parse(validFrom) < Date.parse(current.validFrom))
    throw new DomainError(
      MemoryErrors.VALIDATION_FAILED,
      'A correction cannot be valid before the version it corrects',
    );
}

/**
 * The commands of a correction on the state they are decided at: the person's words recorded as
 * evidence (a message, so the new version is explicit), then the new version resting on them
 * alone (ORIGIN: the old value was wrong or has changed), derived from the standing one. A repeat
 * of the same correction (its version exists) decides nothing.
 */
export function correctionCommands(state: MemoryState, input: CorrectionInput): MemoryCommand[] {
  if (state.versions[input.versionId]?.memoryId === input.memoryId) return [];
  checkCorrectable(state, input.memoryId, input.validFrom);
  const chain = state.memories[input.memoryId];
  const current = currentVersion(state, input.memoryId)!;
  return [
    {
      type: 'RecordEvidence',
      evidenceId: input.evidenceId,
      source: {
        kind: 'message',
        messageId: input.messageId,
        ...(chain.scope.kind === 'task' ? { taskId: chain.scope.taskId } : {}),
        language: input.language,
      },
      at: input.at,
      fingerprint: evidenceFingerprint(input.text),
    },
    {
      type: 'CorrectMemory',
      memoryId: input.memoryId,
      at: input.validFrom,
      version: {
        memoryId: input.memoryId,
        versionId: input.versionId,
        version: lastVersionNumber(state, input.memoryId) + 1,
        subject: chain.subject,
        kind: current.kind,
        scope: chain.scope,
        origin: 'explicit',
        text: input.textRef,
        fingerprint: memoryFingerprint(chain.subject, input.value),
        validFrom: input.validFrom,
        evidence: [{ evidenceId: input.evidenceId, role: 'ORIGIN' }],
        derivedFrom: [current.versionId],
        cause: 'corrected',
      },
    },
  ];
}
