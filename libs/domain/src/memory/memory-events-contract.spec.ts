import fc from 'fast-check';
import { checkDecidedEvents, commandArbitraries, expectEventTypesOfCategory } from '@lomo/testing';
import type { ApplyForgetting, MemoryCommand } from './memory-commands';
import { memoryDecider } from './memory-decider';
import { memoryEventTypes } from './memory-events';
import {
  currentProfile,
  currentVersion,
  forgettingScope,
  isSupporting,
  lastProfileVersion,
  lastVersionNumber,
  profileEligible,
  standingVersions,
} from './memory-queries';
import type { MemoryState } from './memory-state';
import { at, blob, ids, message, mid, observation } from './memory.fixtures';

// Random command sequences over a small pool of ids. The arbitraries give the intent (which
// evidence, which memory, create/refine/confirm); `prepare` fills in what only the state knows
// (next version numbers, parents, the cascade a forgetting reaches), so sequences get deep enough
// to produce every memory event, each of which must parse with its contract schema.
const evidencePool = [ids.m1, ids.m2, ids.m3, ids.obs];
const memories = { [ids.brand]: 'brand.colour.main', [ids.style]: 'style.palette' } as Record<string, string>;
const forgettings = [ids.f1, mid(41)];
const { cmd, weighted } = commandArbitraries<MemoryCommand>();
const fresh = (state: MemoryState, base: number) =>
  mid(base + Object.keys(state.versions).length + Object.keys(state.summaries).length);
const fingerprintOf = (n: number) => n.toString(16).padStart(64, '0');
const usable = (state: MemoryState, id: string) => state.evidence[id] !== undefined && !state.evidence[id].revoked;

function prepareExtraction(
  command: Extract<MemoryCommand, { type: 'RecordExtraction' }>,
  state: MemoryState,
): MemoryCommand {
  const evidenceId = command.extraction.evidenceId;
  const outcome = command.extraction.outcomes[0];
  const memoryId = outcome.memoryId as string;
  const current = currentVersion(state, memoryId);
  if (outcome.outcome === 'confirmed')
    return current ? { ...command, confirmations: [{ memoryId, versionId: current.versionId, evidenceId }] } : command;
  const versionId = fresh(state, 100);
  const carried = (current?.evidence ?? []).filter((l) => isSupporting(l.role) && usable(state, l.evidenceId));
  const version = {
    memoryId,
    versionId,
    version: lastVersionNumber(state, memoryId) + 1,
    subject: memories[memoryId],
    kind: 'preference' as const,
    scope: { kind: 'long_term' as const },
    origin: state.evidence[evidenceId]?.source.kind === 'message' ? ('explicit' as const) : ('inferred' as const),
    text: blob('a'),
    fingerprint: fingerprintOf(Object.keys(state.versions).length + 1),
    validFrom: at(0),
    evidence: [
      ...carried.filter((l) => l.evidenceId !== evidenceId),
      { evidenceId, role: current ? ('REFINE' as const) : ('ORIGIN' as const) },
    ],
    derivedFrom: current ? [current.versionId] : [],
    cause: current ? ('refined' as const) : ('extracted' as const),
  };
  const supersessions = current
    ? [{ memoryId, versionId: current.versionId, byVersionId: versionId, reason: 'refined' as const }]
    : [];
  // A second candidate confirming the other memory: what a forgetting later detaches.
  const other = command.extraction.outcomes[1]?.memoryId;
  const confirmedOther = other === undefined ? undefined : currentVersion(state, other);
  const confirmations = confirmedOther
    ? [{ memoryId: confirmedOther.memoryId, versionId: confirmedOther.versionId, evidenceId }]
    : [];
  return { ...command, versions: [version], supersessions, confirmations };
}

/** The cascade the decider expects, as the planner in libs/memory works it out (without re-extraction texts). */
function prepareApply(command: ApplyForgetting, state: MemoryState): MemoryCommand {
  const forgetting = state.forgettings[command.forgettingId];
  if (!forgetting) return command;
  const forgettingId = command.forgettingId;
  const scope = forgettingScope(state, forgetting.evidenceIds);
  const revoked = new Set(forgetting.evidenceIds);
  const purged = new Set(scope.purged.map((v) => v.versionId));
  const reextracted = scope.chainsLosingCurrent.flatMap((memoryId, i) => {
    const left = scope.purged
      .flatMap((v) => (v.memoryId === memoryId ? v.evidence : []))
      .find((l) => usable(state, l.evidenceId) && !revoked.has(l.evidenceId));
    if (!left) return [];
    const chain = state.memories[memoryId];
    return [
      {
        memoryId,
        versionId: mid(500 + Object.keys(state.versions).length + i),
        version: lastVersionNumber(state, memoryId) + 1,
        subject: chain.subject,
        kind: 'preference' as const,
        scope: chain.scope,
        origin: 'inferred' as const,
        text: blob('9'),
        fingerprint: fingerprintOf(1000 + Object.keys(state.versions).length + i),
        validFrom: at(59),
        evidence: [{ evidenceId: left.evidenceId, role: 'ORIGIN' as const }],
        derivedFrom: [],
        cause: 'reextracted' as const,
      },
    ];
  });
  return {
    ...command,
    revoked: { forgettingId, evidenceIds: [...forgetting.evidenceIds] },
    purged: scope.purged.map((v) => ({ forgettingId, memoryId: v.memoryId, versionId: v.versionId })),
    detached: scope.detached.map((d) => ({ forgettingId, ...d })),
    suppressed: {
      forgettingId,
      fingerprints: [
        ...new Set([
          ...scope.purged.map((v) => v.fingerprint),
          ...forgetting.evidenceIds.map((id) => state.evidence[id].fingerprint),
        ]),
      ],
      throughEvidence: state.evidenceCount,
    },
    reextracted,
    profile: scope.profileAffected
      ? {
          version: lastProfileVersion(state) + 1,
          text: blob('7'),
          memoryVersionIds: [],
          reason: 'forgetting',
          forgettingId,
        }
      : null,
    purgedProfiles: scope.profilesToPurge.map((p) => ({ version: p.version, forgettingId })),
    summariesInvalidated: scope.summariesToInvalidate.map((s) => ({ summaryId: s.summaryId, forgettingId })),
    summariesWritten: scope.summariesToInvalidate
      .filter((s) => s.status === 'current')
      .map((s, i) => ({
        summaryId: mid(700 + Object.keys(state.summaries).length + i),
        taskId: s.taskId,
        text: blob('8'),
        evidenceIds: s.evidenceIds.filter((id) => !revoked.has(id) && usable(state, id)),
        memoryVersionIds: s.memoryVersionIds.filter((id) => !purged.has(id) && state.versions[id]?.status !== 'purged'),
        supersedes: s.summaryId,
      })),
  };
}

function prepare(command: MemoryCommand, state: MemoryState): MemoryCommand {
  switch (command.type) {
    case 'RecordExtraction':
      return prepareExtraction(command, state);
    case 'CorrectMemory': {
      const version = {
        ...command.version,
        versionId: fresh(state, 300),
        version: lastVersionNumber(state, command.memoryId) + 1,
        subject: memories[command.memoryId],
        fingerprint: fingerprintOf(2000 + Object.keys(state.versions).length),
      };
      return { ...command, version };
    }
    case 'ApplyForgetting':
      return prepareApply(command, state);
    case 'CompleteForgetting': {
      const evidenceIds = state.forgettings[command.forgettingId]?.evidenceIds ?? [];
      return { ...command, report: { ...command.report, revokedEvidenceIds: [...evidenceIds] } };
    }
    case 'PublishProfile': {
      const eligible = standingVersions(state)
        .filter(profileEligible)
        .map((v) => v.versionId);
      return { ...command, version: lastProfileVersion(state) + 1, memoryVersionIds: eligible };
    }
    case 'WriteEpisodeSummary': {
      const current = Object.values(state.summaries).find((s) => s.status === 'current');
      return {
        ...command,
        summaryId: fresh(state, 800),
        evidenceIds: evidencePool.filter((id) => usable(state, id)),
        memoryVersionIds: Object.values(state.versions)
          .filter((v) => v.status !== 'purged')
          .map((v) => v.versionId),
        ...(current ? { supersedes: current.summaryId } : {}),
      };
    }
    default:
      return command;
  }
}

const recordEvidence = fc.constantFrom<MemoryCommand>(
  ...[message(ids.m1, 'a'), message(ids.m2, 'b'), message(ids.m3, 'c'), observation(ids.obs, 'd')].map(
    (e) => ({ type: 'RecordEvidence', ...(e.data as object) }) as MemoryCommand,
  ),
);

const report = {
  revokedEvidenceIds: [],
  purgedVersionIds: [],
  reextractedVersionIds: [],
  detached: [],
  profileVersion: null,
  purgedProfileVersions: [],
  summariesInvalidated: [],
  summariesRebuilt: [],
  indexEntriesDeleted: [],
  suppressions: [],
  blobsDeleted: [],
  excluded: [],
};

const command: fc.Arbitrary<MemoryCommand> = fc.oneof(
  weighted(4, recordEvidence),
  weighted(
    1,
    fc
      .record({ evidenceId: fc.constantFrom(...evidencePool), taskId: fc.constantFrom(ids.task, ids.brand) })
      .map((data): MemoryCommand => ({ type: 'NoteEvidenceCopy', ...data })),
  ),
  weighted(
    8,
    fc
      .record({
        evidenceId: fc.constantFrom(...evidencePool),
        memoryId: fc.constantFrom(ids.brand, ids.style),
        outcome: fc.constantFrom('created' as const, 'confirmed' as const),
        alsoConfirm: fc.boolean(),
      })
      .map(({ evidenceId, memoryId, outcome, alsoConfirm }): MemoryCommand => ({
        type: 'RecordExtraction',
        extraction: {
          evidenceId,
          extractor: 'offline_rules',
          candidates: 2,
          outcomes: [
            { index: 0, outcome, memoryId },
            ...(alsoConfirm && outcome === 'created'
              ? [{ index: 1, outcome: 'confirmed' as const, memoryId: memoryId === ids.brand ? ids.style : ids.brand }]
              : []),
          ],
        },
        versions: [],
        supersessions: [],
        confirmations: [],
      })),
  ),
  weighted(
    1,
    fc.constantFrom(ids.brand, ids.style).map((memoryId): MemoryCommand => ({
      type: 'CorrectMemory',
      memoryId,
      at: at(59),
      version: {
        memoryId,
        versionId: ids.v3,
        version: 1,
        subject: 'x',
        kind: 'fact',
        scope: { kind: 'long_term' },
        origin: 'explicit',
        text: blob('c'),
        fingerprint: blob('c').hash,
        validFrom: at(59),
        evidence: [{ evidenceId: ids.m3, role: 'ORIGIN' }],
        derivedFrom: [],
        cause: 'corrected',
      },
    })),
  ),
  weighted(
    2,
    cmd<MemoryCommand>({
      type: fc.constant('RequestForgetting'),
      forgettingId: fc.constantFrom(...forgettings),
      target: fc.oneof(
        fc.constantFrom(ids.brand, ids.style).map((memoryId) => ({ kind: 'memory' as const, memoryId })),
        fc.subarray(evidencePool, { minLength: 1 }).map((evidenceIds) => ({ kind: 'evidence' as const, evidenceIds })),
      ),
      requestedBy: fc.constant('u1'),
    } as never),
  ),
  weighted(
    2,
    cmd<MemoryCommand>({
      type: fc.constant('ConfirmForgetting'),
      forgettingId: fc.constantFrom(...forgettings),
      confirmedBy: fc.constantFrom('u1', 'u1', 'u2'),
    } as never),
  ),
  weighted(
    1,
    cmd<MemoryCommand>({
      type: fc.constant('CancelForgetting'),
      forgettingId: fc.constantFrom(...forgettings),
      by: fc.constant('u1'),
    } as never),
  ),
  weighted(
    3,
    fc
      .constantFrom(...forgettings)
      .map((forgettingId) => ({ type: 'ApplyForgetting', forgettingId }) as unknown as MemoryCommand),
  ),
  weighted(
    2,
    fc
      .constantFrom(...forgettings)
      .map((forgettingId): MemoryCommand => ({ type: 'CompleteForgetting', forgettingId, report })),
  ),
  weighted(
    2,
    fc.constant<MemoryCommand>({
      type: 'PublishProfile',
      version: 1,
      text: blob('e'),
      memoryVersionIds: [],
      reason: 'memories_changed',
    }),
  ),
  weighted(
    2,
    fc.constant<MemoryCommand>({
      type: 'WriteEpisodeSummary',
      summaryId: ids.s1,
      taskId: ids.task,
      text: blob('f'),
      evidenceIds: [],
      memoryVersionIds: [],
    }),
  ),
);

describe('memory decider: every decided event matches its contract', () => {
  it('lists exactly the memory-stream events of the registry', () => {
    expectEventTypesOfCategory('memory', memoryEventTypes);
  });

  it('random command sequences produce only valid events, with at most one standing version per memory', () => {
    checkDecidedEvents({
      decider: memoryDecider,
      eventTypes: memoryEventTypes,
      first: recordEvidence,
      command,
      prepare,
      afterCommand: (state) => {
        for (const memoryId of Object.keys(state.memories)) {
          const standing = state.memories[memoryId].versionIds.filter((id) => state.versions[id].status === 'current');
          expect(standing.length).toBeLessThanOrEqual(1);
          if (standing.length === 1) expect(currentVersion(state, memoryId)?.versionId).toBe(standing[0]);
        }
        // Nothing stands on revoked evidence, and the profile in force lists only standing versions.
        for (const v of standingVersions(state))
          expect(v.evidence.filter((l) => state.evidence[l.evidenceId]?.revoked)).toEqual([]);
        for (const id of currentProfile(state)?.memoryVersionIds ?? [])
          expect(state.versions[id].status).not.toBe('purged');
      },
      run: { numRuns: 300, seed: 7 },
    });
  });
});
