import type { EventDataMap } from '@lomo/contracts';
import type { MemoryEvent } from './memory-events';

/** Ids and event builders for memory decider tests (never imported by production code). */
export const mid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const ids = {
  task: mid(900),
  m1: mid(1), // "our brand's main colour is blue"
  m2: mid(2), // "blue with off-white is softer"
  m3: mid(3), // a later confirmation
  obs: mid(4), // an observation (a generation call's arguments)
  brand: mid(10),
  style: mid(11),
  v1: mid(21),
  v2: mid(22),
  v3: mid(23),
  s1: mid(30),
  f1: mid(40),
} as const;
export const hash = (c: string) => c.repeat(64);
export const blob = (c: string) => ({ hash: hash(c), bytes: 10, contentType: 'text/plain' });
export const at = (minute: number) => `2025-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

export const message = (evidenceId: string, fingerprint: string, minute = 0): MemoryEvent => ({
  type: 'MemoryEvidenceRecorded',
  data: {
    evidenceId,
    source: { kind: 'message', messageId: evidenceId, language: 'en' },
    at: at(minute),
    fingerprint: hash(fingerprint),
  },
});

export const observation = (evidenceId: string, fingerprint: string): MemoryEvent => ({
  type: 'MemoryEvidenceRecorded',
  data: {
    evidenceId,
    source: {
      kind: 'observation',
      taskId: ids.task,
      turnId: ids.task,
      callId: `${ids.task}:1:0`,
      tool: 'image.generate',
    },
    at: at(1),
    fingerprint: hash(fingerprint),
  },
});

type VersionData = EventDataMap['MemoryVersionCreated'];

export const versionData = (over: Partial<VersionData> & Pick<VersionData, 'versionId'>): VersionData => ({
  memoryId: ids.brand,
  version: 1,
  subject: 'brand.colour.main',
  kind: 'fact',
  scope: { kind: 'long_term' },
  origin: 'explicit',
  text: blob('a'),
  fingerprint: hash('1'),
  validFrom: at(0),
  evidence: [{ evidenceId: ids.m1, role: 'ORIGIN' }],
  derivedFrom: [],
  cause: 'extracted',
  ...over,
});

export const created = (data: VersionData): MemoryEvent => ({ type: 'MemoryVersionCreated', data });

/** v1 from m1 (ORIGIN); v2 refines it with m2 (REFINE, carrying m1), v1 superseded. */
export const v1 = versionData({ versionId: ids.v1 });
export const v2 = versionData({
  versionId: ids.v2,
  version: 2,
  subject: 'brand.colour.main',
  text: blob('b'),
  fingerprint: hash('2'),
  validFrom: at(2),
  evidence: [
    { evidenceId: ids.m1, role: 'ORIGIN' },
    { evidenceId: ids.m2, role: 'REFINE' },
  ],
  derivedFrom: [ids.v1],
  cause: 'refined',
});

export const brandChain = (): MemoryEvent[] => [
  message(ids.m1, 'd', 0),
  message(ids.m2, 'e', 2),
  created(v1),
  created(v2),
  {
    type: 'MemoryVersionSuperseded',
    data: { memoryId: ids.brand, versionId: ids.v1, byVersionId: ids.v2, reason: 'refined' },
  },
];

export const requested = (evidenceIds: string[], forgettingId: string = ids.f1): MemoryEvent => ({
  type: 'ForgettingRequested',
  data: { forgettingId, target: { kind: 'evidence', evidenceIds }, evidenceIds, requestedBy: 'u1' },
});
export const confirmed = (forgettingId: string = ids.f1): MemoryEvent => ({
  type: 'ForgettingConfirmed',
  data: { forgettingId, confirmedBy: 'u1' },
});
