import type { EventDataMap } from '@lomo/contracts';
import {
  currentProfile,
  currentVersion,
  fold,
  memoryDecider,
  MemoryErrors,
  type MemoryBlobRef,
  type MemoryEvent,
  type MemoryState,
} from '@lomo/domain';
import type { VersionDraft } from './forgetting-plan';
import { planForgetting } from './plan-forgetting';
import { toApplyForgetting } from './to-apply-forgetting';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const hex = (n: number) => n.toString(16).padStart(64, '0');
const ref = (n: number): MemoryBlobRef => ({ hash: hex(n), bytes: 10, contentType: 'text/plain' });
const at = (minute: number) => `2025-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const now = at(59);
const task = id(900);
const f1 = id(800);

const e = { m1: id(1), m2: id(2), m3: id(3), m4: id(4), sky: id(5), m6: id(6), m7: id(7), m8: id(8) };
const mem = { brand: id(10), style: id(11), sky: id(12), b: id(13), c: id(14), d: id(15) };
const ver = { v1: id(21), v2: id(22), vs: id(23), vk: id(24), b1: id(25), c1: id(26), d1: id(27) };
const sum = { s1: id(31), s2: id(32) };

const evidence = (evidenceId: string, n: number): MemoryEvent => ({
  type: 'MemoryEvidenceRecorded',
  data: {
    evidenceId,
    source: { kind: 'message', messageId: evidenceId, language: 'en' },
    at: at(n),
    fingerprint: hex(1000 + n),
  },
});

type V = EventDataMap['MemoryVersionCreated'];
const version = (
  o: Partial<V> & Pick<V, 'memoryId' | 'versionId' | 'subject' | 'evidence'>,
  n: number,
): MemoryEvent => ({
  type: 'MemoryVersionCreated',
  data: {
    version: 1,
    kind: 'preference',
    scope: { kind: 'long_term' },
    origin: 'explicit',
    text: ref(n),
    fingerprint: hex(n),
    validFrom: at(0),
    derivedFrom: [],
    cause: 'extracted',
    ...o,
  },
});

const forgetting = (evidenceIds: string[]): MemoryEvent[] => [
  {
    type: 'ForgettingRequested',
    data: { forgettingId: f1, target: { kind: 'evidence', evidenceIds }, evidenceIds, requestedBy: 'u1' },
  },
  { type: 'ForgettingConfirmed', data: { forgettingId: f1, confirmedBy: 'u1' } },
];

/**
 * The article's example (§7.3): "our brand's main colour is blue" (m1) → v1; "blue with off-white is
 * softer" (m2) → v2 refining v1; a later confirmation (m3). Beside it: a style preference standing on
 * m4 that m1 only confirmed, an unrelated memory about a blue sky, a profile and two summaries.
 */
function articleExample(): MemoryEvent[] {
  return [
    ...[e.m1, e.m2, e.m3, e.m4, e.sky].map((x, i) => evidence(x, i + 1)),
    version(
      {
        memoryId: mem.brand,
        versionId: ver.v1,
        subject: 'brand.colour.main',
        evidence: [{ evidenceId: e.m1, role: 'ORIGIN' }],
      },
      1,
    ),
    version(
      {
        memoryId: mem.brand,
        versionId: ver.v2,
        version: 2,
        subject: 'brand.colour.main',
        evidence: [
          { evidenceId: e.m1, role: 'ORIGIN' },
          { evidenceId: e.m2, role: 'REFINE' },
        ],
        derivedFrom: [ver.v1],
        cause: 'refined',
      },
      2,
    ),
    {
      type: 'MemoryVersionSuperseded',
      data: { memoryId: mem.brand, versionId: ver.v1, byVersionId: ver.v2, reason: 'refined' },
    },
    { type: 'MemoryVersionConfirmed', data: { memoryId: mem.brand, versionId: ver.v2, evidenceId: e.m3 } },
    version(
      {
        memoryId: mem.style,
        versionId: ver.vs,
        subject: 'style.tone',
        evidence: [{ evidenceId: e.m4, role: 'ORIGIN' }],
      },
      3,
    ),
    { type: 'MemoryVersionConfirmed', data: { memoryId: mem.style, versionId: ver.vs, evidenceId: e.m1 } },
    version(
      { memoryId: mem.sky, versionId: ver.vk, subject: 'scene.sky', evidence: [{ evidenceId: e.sky, role: 'ORIGIN' }] },
      4,
    ),
    {
      type: 'ProfileVersionPublished',
      data: { version: 1, text: ref(50), memoryVersionIds: [ver.v2, ver.vs, ver.vk], reason: 'memories_changed' },
    },
    {
      type: 'EpisodeSummaryWritten',
      data: { summaryId: sum.s1, taskId: task, text: ref(60), evidenceIds: [e.m1, e.m2], memoryVersionIds: [ver.v2] },
    },
    {
      type: 'EpisodeSummaryWritten',
      data: { summaryId: sum.s2, taskId: task, text: ref(61), evidenceIds: [e.sky], memoryVersionIds: [ver.vk] },
    },
    ...forgetting([e.m1]),
  ];
}

/** The re-extractor proposes the forgotten claim again (v1's fingerprint) and a softer claim from m2. */
const blueAgain: VersionDraft = {
  subject: 'brand.colour.main',
  kind: 'fact',
  scope: { kind: 'long_term' },
  origin: 'explicit',
  text: "The brand's main colour is blue",
  fingerprint: hex(1),
  evidence: [{ evidenceId: e.m2, role: 'ORIGIN' }],
};
const softer: VersionDraft = {
  subject: 'brand.colour.main',
  kind: 'preference',
  scope: { kind: 'long_term' },
  origin: 'explicit',
  text: 'Prefers off-white accents for a softer look',
  fingerprint: hex(3000),
  evidence: [
    { evidenceId: e.m2, role: 'ORIGIN' },
    { evidenceId: e.m3, role: 'CONFIRM' },
  ],
};

function plan(state: MemoryState, drafts: readonly VersionDraft[] = [blueAgain, softer]) {
  let next = 700;
  const seen: { evidence: string[]; suppressed: ReadonlySet<string> }[] = [];
  const result = planForgetting({
    state,
    forgettingId: f1,
    now,
    newId: () => id(next++),
    reextract: (remaining, suppressed) => {
      seen.push({ evidence: remaining.map((x) => x.evidenceId), suppressed });
      return drafts;
    },
    renderProfile: (standing) => standing.map((m) => m.draftText ?? m.versionId).join('; '),
    renderSummary: ({ evidence: left, memories }) => `${left.length} messages, ${memories.length} memories`,
  });
  return { result, seen };
}

/** Stores the texts (fake hashes), appends the command through the decider, folds the result. */
function applied(events: MemoryEvent[], planned: ReturnType<typeof plan>['result']) {
  const stored = new Map(planned.texts.map((t, i) => [t.key, ref(9000 + i)]));
  const state = fold(memoryDecider, events);
  const decided = memoryDecider.decide(toApplyForgetting(planned, stored), state);
  return fold(memoryDecider, [...events, ...decided]);
}

describe('forgetting cascade planner: the article example', () => {
  const events = articleExample();
  const state = fold(memoryDecider, events);
  const { result, seen } = plan(state);

  it('revokes m1, purges v1 and v2 (v2 through m1 and its derivation), suppresses their claims and the words', () => {
    expect(result.revoked.evidenceIds).toEqual([e.m1]);
    expect(result.purged.map((p) => p.versionId)).toEqual([ver.v1, ver.v2]);
    expect(result.suppressed).toEqual({
      forgettingId: f1,
      fingerprints: [hex(1), hex(2), hex(1001)],
      throughEvidence: 5,
    });
  });

  it('re-extracts v3 from m2 and m3 only, and drops the draft that claims blue is the main colour', () => {
    expect(seen[0].evidence).toEqual([e.m2, e.m3]);
    expect(seen[0].suppressed.has(hex(1))).toBe(true);
    expect(result.dropped).toEqual([{ fingerprint: hex(1), subject: 'brand.colour.main', reason: 'suppressed' }]);
    expect(result.reextracted).toHaveLength(1);
    expect(result.reextracted[0].data).toMatchObject({
      memoryId: mem.brand,
      version: 3,
      fingerprint: hex(3000),
      cause: 'reextracted',
      derivedFrom: [],
      validFrom: now,
    });
    expect(result.texts.find((t) => t.key === result.reextracted[0].textKey)?.text).not.toMatch(/main colour is blue/);
  });

  it('detaches the CONFIRM-only link of the style preference, which stands on m4', () => {
    expect(result.detached).toEqual([{ forgettingId: f1, memoryId: mem.style, versionId: ver.vs, evidenceId: e.m1 }]);
  });

  it('publishes a new profile, purges the old one, rebuilds the summary that used m1 and leaves the sky alone', () => {
    const v3 = result.reextracted[0].data.versionId;
    expect(result.profile?.data).toEqual({
      version: 2,
      memoryVersionIds: [v3, ver.vs, ver.vk],
      reason: 'forgetting',
      forgettingId: f1,
    });
    expect(result.purgedProfiles).toEqual([{ version: 1, forgettingId: f1 }]);
    expect(result.summariesInvalidated).toEqual([{ summaryId: sum.s1, forgettingId: f1 }]);
    expect(result.summariesWritten.map((s) => s.data)).toEqual([
      { summaryId: expect.any(String), taskId: task, evidenceIds: [e.m2], memoryVersionIds: [v3], supersedes: sum.s1 },
    ]);
    expect(result.blobsToDelete).toEqual([hex(1), hex(2), hex(50), hex(60)]);
    expect(result.indexEntriesToDelete).toEqual([`memory:${ver.v1}`, `memory:${ver.v2}`, `summary:${sum.s1}`]);
    expect(result.report).toMatchObject({
      purgedVersionIds: [ver.v1, ver.v2],
      reextractedVersionIds: [v3],
      profileVersion: 2,
      summariesRebuilt: [result.summariesWritten[0].data.summaryId],
      detached: [{ versionId: ver.vs, evidenceId: e.m1 }],
    });
  });

  it('is accepted by the decider, and afterwards nothing stands on m1', () => {
    const after = applied(events, result);
    expect(after.versions[ver.v1]).toMatchObject({ status: 'purged', text: null });
    expect(after.versions[ver.v2]).toMatchObject({ status: 'purged', text: null });
    expect(currentVersion(after, mem.brand)?.fingerprint).toBe(hex(3000));
    expect(after.versions[ver.vs].evidence).toEqual([{ evidenceId: e.m4, role: 'ORIGIN' }]);
    expect(after.versions[ver.vk]).toMatchObject({ status: 'current', text: ref(4) });
    expect(currentProfile(after)?.version).toBe(2);
    expect(after.profiles[0].text).toBeNull();
    expect(after.summaries[sum.s1].status).toBe('invalidated');
    expect(after.summaries[sum.s2].status).toBe('current');
    // The same claim from the same earlier evidence is refused from now on.
    expect(after.suppressions.map((s) => s.fingerprint)).toContain(hex(1));
  });

  it('plans only a confirmed forgetting', () => {
    const unconfirmed = fold(memoryDecider, events.slice(0, -1));
    expect(() => plan(unconfirmed)).toThrow(expect.objectContaining({ code: MemoryErrors.FORGETTING_NOT_CONFIRMED }));
  });
});

describe('forgetting cascade planner: derivation depth', () => {
  // a (m1) → b (m6, derived from a) → c (m7, derived from b) → d (m8, derived from c).
  const events: MemoryEvent[] = [
    ...[e.m1, e.m6, e.m7, e.m8, e.sky].map((x, i) => evidence(x, i + 1)),
    version(
      {
        memoryId: mem.brand,
        versionId: ver.v1,
        subject: 'brand.colour.main',
        evidence: [{ evidenceId: e.m1, role: 'ORIGIN' }],
      },
      1,
    ),
    version(
      {
        memoryId: mem.b,
        versionId: ver.b1,
        subject: 'brand.palette',
        evidence: [{ evidenceId: e.m6, role: 'ORIGIN' }],
        derivedFrom: [ver.v1],
      },
      5,
    ),
    version(
      {
        memoryId: mem.c,
        versionId: ver.c1,
        subject: 'brand.poster',
        evidence: [{ evidenceId: e.m7, role: 'ORIGIN' }],
        derivedFrom: [ver.b1],
      },
      6,
    ),
    version(
      {
        memoryId: mem.d,
        versionId: ver.d1,
        subject: 'brand.banner',
        evidence: [{ evidenceId: e.m8, role: 'REFINE' }],
        derivedFrom: [ver.c1],
      },
      7,
    ),
    version(
      { memoryId: mem.sky, versionId: ver.vk, subject: 'scene.sky', evidence: [{ evidenceId: e.sky, role: 'ORIGIN' }] },
      4,
    ),
    ...forgetting([e.m1]),
  ];

  it('purges every version derived from the forgotten one, at depth 3, and re-extracts each from its own evidence', () => {
    const state = fold(memoryDecider, events);
    const drafts: VersionDraft[] = [
      { ...softer, subject: 'brand.palette', fingerprint: hex(3001), evidence: [{ evidenceId: e.m6, role: 'ORIGIN' }] },
      { ...softer, subject: 'brand.poster', fingerprint: hex(3002), evidence: [{ evidenceId: e.m7, role: 'ORIGIN' }] },
    ];
    const { result, seen } = plan(state, drafts);
    expect(result.purged.map((p) => p.versionId)).toEqual([ver.v1, ver.b1, ver.c1, ver.d1]);
    expect(seen[0].evidence).toEqual([e.m6, e.m7, e.m8]);
    expect(result.reextracted.map((v) => [v.data.memoryId, v.data.version])).toEqual([
      [mem.b, 2],
      [mem.c, 2],
    ]);
    const after = applied(events, result);
    expect(after.versions[ver.vk].status).toBe('current');
    expect(currentVersion(after, mem.d)).toBeUndefined();
    expect(result.profile).toBeNull();
  });
});
