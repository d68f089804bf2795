import { deciderSpec } from '@lomo/testing';
import { fold } from '../decider';
import { memoryDecider } from './memory-decider';
import type { MemoryCommand, RecordExtraction } from './memory-commands';
import { MemoryErrors } from './memory-errors';
import { currentVersion, versionAt } from './memory-queries';
import { blob, brandChain, created, hash, ids, message, observation, v1, v2, versionData, at } from './memory.fixtures';

const { given } = deciderSpec(memoryDecider);

const extraction = (evidenceId: string, over: Partial<RecordExtraction> = {}): RecordExtraction => ({
  type: 'RecordExtraction',
  extraction: { evidenceId, extractor: 'offline_rules', candidates: 1, outcomes: [{ index: 0, outcome: 'created' }] },
  versions: [],
  supersessions: [],
  confirmations: [],
  ...over,
});

describe('memory: evidence and extraction', () => {
  it('records evidence once; the same id again is a no-op, with other text a refusal', () => {
    const cmd = { type: 'RecordEvidence', ...(message(ids.m1, 'd').data as object) } as MemoryCommand;
    given([])
      .when(cmd)
      .then([message(ids.m1, 'd')]);
    given([message(ids.m1, 'd')])
      .when(cmd)
      .then([]);
    given([message(ids.m1, '0')])
      .when(cmd)
      .thenThrows(MemoryErrors.VALIDATION_FAILED);
    expect(fold(memoryDecider, [message(ids.m1, 'd'), message(ids.m2, 'e')]).evidence[ids.m2].ordinal).toBe(2);
  });

  it('notes another task holding a copy of a message once; an unknown evidence, an observation or a repeat is a no-op', () => {
    const copy: MemoryCommand = { type: 'NoteEvidenceCopy', evidenceId: ids.m1, taskId: ids.task };
    given([message(ids.m1, 'd')])
      .when(copy)
      .then([{ type: 'MemoryEvidenceCopied', data: { evidenceId: ids.m1, taskId: ids.task } }]);
    given([message(ids.m1, 'd'), { type: 'MemoryEvidenceCopied', data: { evidenceId: ids.m1, taskId: ids.task } }])
      .when(copy)
      .then([]);
    given([]).when(copy).then([]);
    given([observation(ids.obs, 'o')])
      .when({ type: 'NoteEvidenceCopy', evidenceId: ids.obs, taskId: ids.task })
      .then([]);
    const state = fold(memoryDecider, [
      message(ids.m1, 'd'),
      { type: 'MemoryEvidenceCopied', data: { evidenceId: ids.m1, taskId: ids.task } },
    ]);
    expect(state.evidence[ids.m1].copiedTo).toEqual([ids.task]);
  });

  it('creates v1 from a message (ORIGIN), then v2 refines it and v1 is superseded', () => {
    const first = extraction(ids.m1, { versions: [v1] });
    given([message(ids.m1, 'd')])
      .when(first)
      .then([created(v1), { type: 'MemoryExtractionRecorded', data: first.extraction }]);
    const refine = extraction(ids.m2, {
      versions: [v2],
      supersessions: [{ memoryId: ids.brand, versionId: ids.v1, byVersionId: ids.v2, reason: 'refined' }],
    });
    given([message(ids.m1, 'd'), message(ids.m2, 'e'), created(v1)])
      .when(refine)
      .then([
        created(v2),
        { type: 'MemoryVersionSuperseded', data: refine.supersessions[0] },
        { type: 'MemoryExtractionRecorded', data: refine.extraction },
      ]);
    const state = fold(memoryDecider, brandChain());
    expect(currentVersion(state, ids.brand)?.versionId).toBe(ids.v2);
    expect(state.versions[ids.v1]).toMatchObject({ status: 'superseded', supersededReason: 'refined' });
  });

  it('is once per evidence: a repeat is a no-op', () => {
    const first = extraction(ids.m1, { versions: [v1] });
    given([message(ids.m1, 'd'), created(v1), { type: 'MemoryExtractionRecorded', data: first.extraction }])
      .when(first)
      .then([]);
  });

  it('confirms a standing version with a CONFIRM link and no new version', () => {
    const confirm = extraction(ids.m3, {
      extraction: {
        evidenceId: ids.m3,
        extractor: 'offline_rules',
        candidates: 1,
        outcomes: [{ index: 0, outcome: 'confirmed' }],
      },
      confirmations: [{ memoryId: ids.brand, versionId: ids.v2, evidenceId: ids.m3 }],
    });
    given([...brandChain(), message(ids.m3, 'f')])
      .when(confirm)
      .then([
        { type: 'MemoryVersionConfirmed', data: confirm.confirmations[0] },
        { type: 'MemoryExtractionRecorded', data: confirm.extraction },
      ]);
    given([...brandChain(), message(ids.m3, 'f')])
      .when({ ...confirm, confirmations: [{ memoryId: ids.brand, versionId: ids.v1, evidenceId: ids.m3 }] })
      .thenThrows(MemoryErrors.VERSION_NOT_CURRENT);
  });

  it('refuses unknown or revoked evidence, stale parents, broken numbering and a second standing version', () => {
    given([])
      .when(extraction(ids.m1, { versions: [v1] }))
      .thenThrows(MemoryErrors.EVIDENCE_UNKNOWN);
    given([...brandChain()])
      .when(extraction(ids.m2, { versions: [versionData({ versionId: ids.v3, version: 3, derivedFrom: [ids.v1] })] }))
      .thenThrows(MemoryErrors.VERSION_NOT_CURRENT);
    given([message(ids.m1, 'd'), message(ids.m2, 'e'), created(v1)])
      .when(extraction(ids.m2, { versions: [versionData({ versionId: ids.v2, version: 3 })] }))
      .thenThrows(MemoryErrors.VERSION_CONFLICT);
    given([message(ids.m1, 'd'), message(ids.m2, 'e'), created(v1)])
      .when(extraction(ids.m2, { versions: [{ ...v2, derivedFrom: [] }] }))
      .thenThrows(MemoryErrors.VERSION_NOT_CURRENT);
    given([message(ids.m1, 'd')])
      .when(
        extraction(ids.m1, {
          extraction: {
            evidenceId: ids.m1,
            extractor: 'model',
            candidates: 1,
            outcomes: [{ index: 1, outcome: 'created' }],
          },
        }),
      )
      .thenThrows(MemoryErrors.VALIDATION_FAILED);
  });

  it('keeps an inferred guess inferred: observations never back an explicit version', () => {
    const guess = versionData({
      versionId: ids.v1,
      memoryId: ids.style,
      subject: 'style.genre',
      kind: 'preference',
      origin: 'inferred',
      evidence: [{ evidenceId: ids.obs, role: 'ORIGIN' }],
    });
    given([observation(ids.obs, 'c')])
      .when(extraction(ids.obs, { versions: [guess] }))
      .then([created(guess), { type: 'MemoryExtractionRecorded', data: extraction(ids.obs).extraction }]);
    given([observation(ids.obs, 'c')])
      .when(extraction(ids.obs, { versions: [{ ...guess, origin: 'explicit' }] }))
      .thenThrows(MemoryErrors.INFERRED_NOT_EXPLICIT);
    given([observation(ids.obs, 'c'), created(guess)])
      .when({
        type: 'PublishProfile',
        version: 1,
        text: blob('7'),
        memoryVersionIds: [ids.v1],
        reason: 'memories_changed',
      })
      .thenThrows(MemoryErrors.INFERRED_NOT_EXPLICIT);
  });
});

describe('memory: corrections', () => {
  const green = versionData({
    versionId: ids.v3,
    version: 3,
    text: blob('6'),
    fingerprint: hash('3'),
    validFrom: at(30),
    evidence: [{ evidenceId: ids.m3, role: 'ORIGIN' }],
    cause: 'corrected',
  });

  it('makes a new version valid from the correction; the old one stays the answer for its time', () => {
    const events = [...brandChain(), message(ids.m3, 'f', 30)];
    given(events)
      .when({ type: 'CorrectMemory', memoryId: ids.brand, version: green, at: at(30) })
      .then([
        created(green),
        {
          type: 'MemoryVersionSuperseded',
          data: { memoryId: ids.brand, versionId: ids.v2, byVersionId: ids.v3, reason: 'corrected', validTo: at(30) },
        },
      ]);
    const after = fold(memoryDecider, [
      ...events,
      ...memoryDecider.decide(
        { type: 'CorrectMemory', memoryId: ids.brand, version: green, at: at(30) },
        fold(memoryDecider, events),
      ),
    ]);
    expect(after.versions[ids.v2]).toMatchObject({ status: 'superseded', validTo: at(30), text: blob('b') });
    expect(versionAt(after, ids.brand, at(10))?.versionId).toBe(ids.v2);
    expect(versionAt(after, ids.brand, at(40))?.versionId).toBe(ids.v3);
    given([...events, created(green)])
      .when({ type: 'CorrectMemory', memoryId: ids.brand, version: green, at: at(30) })
      .then([]);
  });

  it('refuses a correction of an unknown memory or one not valid from its time', () => {
    given([])
      .when({ type: 'CorrectMemory', memoryId: ids.brand, version: green, at: at(30) })
      .thenThrows(MemoryErrors.MEMORY_NOT_FOUND);
    given([...brandChain(), message(ids.m3, 'f', 30)])
      .when({ type: 'CorrectMemory', memoryId: ids.brand, version: green, at: at(31) })
      .thenThrows(MemoryErrors.VALIDATION_FAILED);
  });
});
