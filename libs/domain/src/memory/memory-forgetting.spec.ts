import { deciderSpec } from '@lomo/testing';
import { fold } from '../decider';
import type { ApplyForgetting } from './memory-commands';
import { memoryDecider } from './memory-decider';
import { MemoryErrors } from './memory-errors';
import { versionsDependingOn } from './memory-queries';
import {
  at,
  blob,
  brandChain,
  confirmed,
  created,
  hash,
  ids,
  message,
  requested,
  v1,
  versionData,
} from './memory.fixtures';

const { given } = deciderSpec(memoryDecider);

const apply = (over: Partial<ApplyForgetting> = {}): ApplyForgetting => ({
  type: 'ApplyForgetting',
  forgettingId: ids.f1,
  revoked: { forgettingId: ids.f1, evidenceIds: [ids.m1] },
  purged: [
    { forgettingId: ids.f1, memoryId: ids.brand, versionId: ids.v1 },
    { forgettingId: ids.f1, memoryId: ids.brand, versionId: ids.v2 },
  ],
  detached: [],
  suppressed: { forgettingId: ids.f1, fingerprints: [hash('1'), hash('2'), hash('d')], throughEvidence: 2 },
  reextracted: [],
  profile: null,
  purgedProfiles: [],
  summariesInvalidated: [],
  summariesWritten: [],
  ...over,
});

describe('memory: forgetting needs the person', () => {
  it('fixes the evidence of a memory when asked: its ORIGIN and REFINE evidence', () => {
    given(brandChain())
      .when({
        type: 'RequestForgetting',
        forgettingId: ids.f1,
        target: { kind: 'memory', memoryId: ids.brand },
        requestedBy: 'u1',
      })
      .then([
        {
          type: 'ForgettingRequested',
          data: {
            forgettingId: ids.f1,
            target: { kind: 'memory', memoryId: ids.brand },
            evidenceIds: [ids.m1, ids.m2],
            requestedBy: 'u1',
          },
        },
      ]);
    given([...brandChain(), requested([ids.m1])])
      .when({
        type: 'RequestForgetting',
        forgettingId: ids.f1,
        target: { kind: 'evidence', evidenceIds: [ids.m1] },
        requestedBy: 'u1',
      })
      .then([]);
    given([])
      .when({
        type: 'RequestForgetting',
        forgettingId: ids.f1,
        target: { kind: 'evidence', evidenceIds: [ids.m1] },
        requestedBy: 'u1',
      })
      .thenThrows(MemoryErrors.EVIDENCE_UNKNOWN);
  });

  it('is confirmed or cancelled only by the requester, and only while requested', () => {
    const base = [...brandChain(), requested([ids.m1])];
    given(base).when({ type: 'ConfirmForgetting', forgettingId: ids.f1, confirmedBy: 'u1' }).then([confirmed()]);
    given(base)
      .when({ type: 'ConfirmForgetting', forgettingId: ids.f1, confirmedBy: 'u2' })
      .thenThrows(MemoryErrors.NOT_REQUESTER);
    given([...base, confirmed()])
      .when({ type: 'ConfirmForgetting', forgettingId: ids.f1, confirmedBy: 'u1' })
      .then([]);
    given([...base, confirmed()])
      .when({ type: 'CancelForgetting', forgettingId: ids.f1, by: 'u1' })
      .thenThrows(MemoryErrors.FORGETTING_NOT_CANCELLABLE);
    const cancelled = { type: 'ForgettingCancelled' as const, data: { forgettingId: ids.f1, by: 'u1' } };
    given(base).when({ type: 'CancelForgetting', forgettingId: ids.f1, by: 'u1' }).then([cancelled]);
    given([...base, cancelled])
      .when({ type: 'ConfirmForgetting', forgettingId: ids.f1, confirmedBy: 'u1' })
      .thenThrows(MemoryErrors.FORGETTING_NOT_CONFIRMABLE);
    given([])
      .when({ type: 'ConfirmForgetting', forgettingId: ids.f1, confirmedBy: 'u1' })
      .thenThrows(MemoryErrors.FORGETTING_NOT_FOUND);
  });

  it('applies a cascade only once confirmed, once, and completes only once applied', () => {
    const base = [...brandChain(), requested([ids.m1])];
    given(base).when(apply()).thenThrows(MemoryErrors.FORGETTING_NOT_CONFIRMED);
    const events = memoryDecider.decide(apply(), fold(memoryDecider, [...base, confirmed()]));
    expect(events.map((e) => e.type)).toEqual([
      'EvidenceRevoked',
      'MemoryVersionPurged',
      'MemoryVersionPurged',
      'ExtractionSuppressed',
    ]);
    const after = [...base, confirmed(), ...events];
    given(after).when(apply()).then([]);
    const state = fold(memoryDecider, after);
    expect(state.versions[ids.v2]).toMatchObject({ status: 'purged', text: null });
    expect(state.evidence[ids.m1].revoked).toBe(true);
    expect(state.forgettings[ids.f1].status).toBe('applied');
    given([...base, confirmed()])
      .when({ type: 'CompleteForgetting', forgettingId: ids.f1, report: {} as never })
      .thenThrows(MemoryErrors.FORGETTING_NOT_APPLIED);
  });

  it('refuses a cascade that leaves a dependent version standing, or forgets to suppress', () => {
    const base = [...brandChain(), requested([ids.m1]), confirmed()];
    given(base)
      .when(apply({ purged: apply().purged.slice(0, 1) }))
      .thenThrows(MemoryErrors.CASCADE_INCOMPLETE);
    given(base)
      .when(apply({ suppressed: { forgettingId: ids.f1, fingerprints: [hash('1')], throughEvidence: 2 } }))
      .thenThrows(MemoryErrors.CASCADE_INCOMPLETE);
  });

  it('finds dependants through derivation, not only through the evidence', () => {
    const state = fold(memoryDecider, [...brandChain(), message(ids.m3, 'f')]);
    expect(versionsDependingOn(state, [ids.m1]).map((v) => v.versionId)).toEqual([ids.v1, ids.v2]);
    expect(versionsDependingOn(state, [ids.m2]).map((v) => v.versionId)).toEqual([ids.v2]);
    expect(versionsDependingOn(state, [ids.m3])).toEqual([]);
  });

  it('leaves a correction standing when the message of the value it corrected is forgotten', () => {
    // given v1 from m1, corrected by v3 from m3 ("that's wrong, it's green now")
    const correction = versionData({
      versionId: ids.v3,
      version: 2,
      text: blob('c'),
      fingerprint: hash('3'),
      validFrom: at(3),
      evidence: [{ evidenceId: ids.m3, role: 'ORIGIN' }],
      derivedFrom: [ids.v1],
      cause: 'corrected',
    });
    const state = fold(memoryDecider, [
      message(ids.m1, 'd', 0),
      message(ids.m3, 'f', 3),
      created(v1),
      created(correction),
      {
        type: 'MemoryVersionSuperseded',
        data: { memoryId: ids.brand, versionId: ids.v1, byVersionId: ids.v3, reason: 'corrected', validTo: at(3) },
      },
    ]);
    // when m1 is forgotten, then only v1 stands on it: the correction rests on m3 alone
    expect(versionsDependingOn(state, [ids.m1]).map((v) => v.versionId)).toEqual([ids.v1]);
    expect(versionsDependingOn(state, [ids.m3]).map((v) => v.versionId)).toEqual([ids.v3]);
  });
});
