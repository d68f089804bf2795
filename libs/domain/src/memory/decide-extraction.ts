import type { EventDataMap } from '@lomo/contracts';
import type { CorrectMemory, NoteEvidenceCopy, RecordEvidence, RecordExtraction } from './memory-commands';
import { MemoryErrors } from './memory-errors';
import type { MemoryEvent } from './memory-events';
import { checkNewVersion, invalid, newBatch, oneStandingPerMemory, refuse, standsAfter } from './memory-guards';
import { currentVersion } from './memory-queries';
import type { MemoryState } from './memory-state';

// Evidence enters memory's reach; extraction turns it into versions (article §7.1, §7.4). Every
// command is idempotent: a repeat decides nothing.

export function recordEvidence(command: RecordEvidence, state: MemoryState): MemoryEvent[] {
  const { type: _type, ...data } = command;
  const known = state.evidence[data.evidenceId];
  if (known) {
    if (known.fingerprint === data.fingerprint) return [];
    invalid(`Evidence ${data.evidenceId} was recorded with other text`);
  }
  return [{ type: 'MemoryEvidenceRecorded', data }];
}

/**
 * Where else the evidence's message is held. Nothing to note for evidence not recorded (or not a
 * message), its own task, or a task already noted.
 */
export function noteEvidenceCopy(command: NoteEvidenceCopy, state: MemoryState): MemoryEvent[] {
  const known = state.evidence[command.evidenceId];
  if (known === undefined || known.source.kind !== 'message') return [];
  if (known.source.taskId === command.taskId || known.copiedTo.includes(command.taskId)) return [];
  return [{ type: 'MemoryEvidenceCopied', data: { evidenceId: command.evidenceId, taskId: command.taskId } }];
}

function checkOutcomes(extraction: EventDataMap['MemoryExtractionRecorded']): void {
  const seen = new Set<number>();
  for (const o of extraction.outcomes) {
    if (o.index >= extraction.candidates || seen.has(o.index))
      invalid(`Outcome ${o.index} does not name one of the ${extraction.candidates} candidates once`);
    seen.add(o.index);
  }
}

/**
 * Once per evidence, checked as a whole before anything is appended: the new versions (parents
 * standing, numbers continuing, evidence usable, explicit only from a message), the versions they
 * supersede (standing, followed by a version of the same memory created here) and confirmations.
 */
export function recordExtraction(command: RecordExtraction, state: MemoryState): MemoryEvent[] {
  const { extraction } = command;
  const evidence = state.evidence[extraction.evidenceId];
  if (!evidence) refuse(MemoryErrors.EVIDENCE_UNKNOWN, `Evidence ${extraction.evidenceId} was never recorded`);
  if (evidence.extracted) return [];
  if (evidence.revoked) refuse(MemoryErrors.EVIDENCE_REVOKED, `Evidence ${extraction.evidenceId} was revoked`);
  checkOutcomes(extraction);

  const batch = newBatch();
  for (const v of command.versions) {
    if (v.cause === 'reextracted') invalid('Only a forgetting re-extracts');
    checkNewVersion(state, batch, v);
  }
  const superseded = new Set<string>();
  for (const s of command.supersessions) {
    const old = state.versions[s.versionId];
    if (!old) refuse(MemoryErrors.VERSION_NOT_FOUND, `No version ${s.versionId}`);
    if (old.status !== 'current' || superseded.has(s.versionId))
      refuse(MemoryErrors.VERSION_NOT_CURRENT, `Version ${s.versionId} does not stand`);
    const by = batch.created.get(s.byVersionId);
    if (by?.memoryId !== old.memoryId || s.memoryId !== old.memoryId)
      invalid(`Version ${s.versionId} must be followed by a new version of its own memory`);
    superseded.add(s.versionId);
  }
  oneStandingPerMemory(state, batch, superseded);

  const confirmations = command.confirmations.filter((c) => {
    const version = state.versions[c.versionId];
    if (!version) refuse(MemoryErrors.VERSION_NOT_FOUND, `No version ${c.versionId}`);
    if (version.memoryId !== c.memoryId) invalid(`Version ${c.versionId} is not of memory ${c.memoryId}`);
    if (!standsAfter(state, batch, c.versionId) || superseded.has(c.versionId))
      refuse(MemoryErrors.VERSION_NOT_CURRENT, `Version ${c.versionId} does not stand`);
    const confirming = state.evidence[c.evidenceId];
    if (!confirming) refuse(MemoryErrors.EVIDENCE_UNKNOWN, `Evidence ${c.evidenceId} was never recorded`);
    if (confirming.revoked) refuse(MemoryErrors.EVIDENCE_REVOKED, `Evidence ${c.evidenceId} was revoked`);
    // Evidence the version links already adds nothing.
    return !version.evidence.some((l) => l.evidenceId === c.evidenceId);
  });

  return [
    ...command.versions.map((data): MemoryEvent => ({ type: 'MemoryVersionCreated', data })),
    ...command.supersessions.map((data): MemoryEvent => ({ type: 'MemoryVersionSuperseded', data })),
    ...confirmations.map((data): MemoryEvent => ({ type: 'MemoryVersionConfirmed', data })),
    { type: 'MemoryExtractionRecorded', data: extraction },
  ];
}

/**
 * "That's wrong, it's green now": a new version valid from `at`; the old one stood until `at` and
 * stays the answer for that time (article §7.2), so it is superseded, not purged.
 */
export function correctMemory(command: CorrectMemory, state: MemoryState): MemoryEvent[] {
  const { memoryId, version, at } = command;
  if (!state.memories[memoryId]) refuse(MemoryErrors.MEMORY_NOT_FOUND, `No memory ${memoryId}`);
  const known = state.versions[version.versionId];
  if (known) {
    if (known.memoryId === memoryId && known.cause === 'corrected' && known.validFrom === at) return [];
    refuse(MemoryErrors.VERSION_CONFLICT, `Version ${version.versionId} exists`);
  }
  if (version.memoryId !== memoryId || version.cause !== 'corrected' || version.validFrom !== at)
    invalid('A correction is a version of the same memory, caused by the correction, valid from its time');
  const current = currentVersion(state, memoryId);
  if (!current) refuse(MemoryErrors.VERSION_NOT_CURRENT, `Memory ${memoryId} has no standing version to correct`);
  if (Date.parse(at) < Date.parse(current.validFrom)) invalid('A correction cannot end a version before it began');
  checkNewVersion(state, newBatch(), version);
  return [
    { type: 'MemoryVersionCreated', data: version },
    {
      type: 'MemoryVersionSuperseded',
      data: {
        memoryId,
        versionId: current.versionId,
        byVersionId: version.versionId,
        reason: 'corrected',
        validTo: at,
      },
    },
  ];
}
