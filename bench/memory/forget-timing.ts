import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EvidenceState, MemoryChainState, MemoryState, MemoryVersionState } from '@lomo/domain';
import { planForgetting } from '@lomo/memory';
import { emptyState } from './harness';
import type { Prng } from './prng';

const AT = '2026-03-01T00:00:00.000Z';
const HASH = 'a'.repeat(64);
const ref = (n: number) => ({ hash: n.toString(16).padStart(64, '0'), bytes: 10, contentType: 'text/plain' });

/**
 * 10 000 memories of one person; one forgotten piece of evidence reaches a chain v1 → v2
 * (refined) and two memories derived from it in turn (derivation depth 3: v2 → d1 → d2), is a
 * CONFIRM on 20 others, is named by the profile and by 4 episode summaries.
 */
function stateFor(prng: Prng, count: number): { state: MemoryState; forgettingId: string } {
  const state = emptyState() as MemoryState & Record<string, Record<string, unknown>>;
  const evidence = state.evidence as Record<string, EvidenceState>;
  const versions = state.versions as Record<string, MemoryVersionState>;
  const newEvidence = () => {
    const id = prng.uuid();
    const ordinal = Object.keys(evidence).length + 1;
    evidence[id] = {
      evidenceId: id,
      source: { kind: 'message', messageId: prng.uuid(), language: 'en' },
      at: AT,
      fingerprint: HASH,
      ordinal,
      revoked: false,
      extracted: true,
      copiedTo: [],
    };
    return id;
  };
  const version = (over: Partial<MemoryVersionState> & { evidence: MemoryVersionState['evidence'] }) => {
    const v: MemoryVersionState = {
      versionId: prng.uuid(),
      memoryId: prng.uuid(),
      version: 1,
      subject: `topic.n${Object.keys(versions).length}`,
      kind: 'preference',
      scope: { kind: 'long_term' },
      origin: 'explicit',
      text: ref(Object.keys(versions).length + 1),
      fingerprint: prng.uuid().replace(/-/g, '').padEnd(64, '0').slice(0, 64),
      validFrom: AT,
      validTo: null,
      derivedFrom: [],
      cause: 'extracted',
      status: 'current',
      supersededBy: null,
      supersededReason: null,
      ...over,
    };
    versions[v.versionId] = v;
    const memories = state.memories as Record<string, MemoryChainState>;
    memories[v.memoryId] = {
      memoryId: v.memoryId,
      subject: v.subject,
      scope: v.scope,
      versionIds: [...(memories[v.memoryId]?.versionIds ?? []), v.versionId],
    };
    return v;
  };
  const forgotten = newEvidence();
  const v1 = version({ evidence: [{ evidenceId: forgotten, role: 'ORIGIN' }] });
  const v2 = version({
    memoryId: v1.memoryId,
    subject: v1.subject,
    version: 2,
    evidence: [
      { evidenceId: forgotten, role: 'ORIGIN' },
      { evidenceId: newEvidence(), role: 'REFINE' },
    ],
    derivedFrom: [v1.versionId],
    cause: 'refined',
  });
  Object.assign(v1, { status: 'superseded', supersededBy: v2.versionId, supersededReason: 'refined' });
  const d1 = version({ evidence: [{ evidenceId: newEvidence(), role: 'ORIGIN' }], derivedFrom: [v2.versionId] });
  const d2 = version({ evidence: [{ evidenceId: newEvidence(), role: 'ORIGIN' }], derivedFrom: [d1.versionId] });
  const rest: MemoryVersionState[] = [];
  while (Object.keys(versions).length < count) {
    const own = newEvidence();
    const confirm = rest.length < 20 ? [{ evidenceId: forgotten, role: 'CONFIRM' as const }] : [];
    rest.push(version({ evidence: [{ evidenceId: own, role: 'ORIGIN' }, ...confirm] }));
  }
  state.evidenceCount = Object.keys(evidence).length;
  state.profiles = [
    {
      version: 1,
      text: ref(900_001),
      memoryVersionIds: [v2.versionId, d2.versionId, ...rest.slice(0, 30).map((v) => v.versionId)],
    },
  ];
  const summaries = state.summaries as Record<string, unknown>;
  for (let i = 0; i < 6; i += 1) {
    const summaryId = prng.uuid();
    summaries[summaryId] = {
      summaryId,
      taskId: `task-${i}`,
      text: ref(800_000 + i),
      evidenceIds: i < 4 ? [forgotten] : [],
      memoryVersionIds: i < 4 ? [d1.versionId] : [rest[100 + i]!.versionId],
      status: 'current',
    };
  }
  const forgettingId = prng.uuid();
  (state.forgettings as Record<string, unknown>)[forgettingId] = {
    forgettingId,
    target: { kind: 'evidence', evidenceIds: [forgotten] },
    evidenceIds: [forgotten],
    requestedBy: 'user-f',
    status: 'confirmed',
    report: null,
  };
  return { state, forgettingId };
}

/**
 * Times the forgetting planner (libs/memory/src/forgetting/plan-forgetting.ts, written by another
 * part of issue 18) at 10 000 memories: median of `runs`. Null, with the reason, when the planner
 * is missing or refuses the state.
 */
export function forgetTiming(prng: Prng, runs = 15): { medianMs: number | null; note: string } {
  const planner = path.resolve(__dirname, '../../libs/memory/src/forgetting/plan-forgetting.ts');
  if (!fs.existsSync(planner)) return { medianMs: null, note: 'plan-forgetting.ts does not exist yet: not timed' };
  const { state, forgettingId } = stateFor(prng, 10_000);
  const times: number[] = [];
  let summary = '';
  try {
    for (let i = 0; i < runs; i += 1) {
      const t0 = performance.now();
      const plan = planForgetting({
        state,
        forgettingId,
        now: '2026-06-01T00:00:00.000Z',
        newId: prng.uuid,
        reextract: () => [],
        renderProfile: (standing) => standing.map((m) => m.subject).join('\n'),
        renderSummary: ({ memories }) => (memories.length ? memories.map((m) => m.subject).join(', ') : null),
      });
      times.push(performance.now() - t0);
      summary = `purged ${plan.purged.length}, detached ${plan.detached.length}, profile ${plan.profile ? 'republished' : 'unchanged'}, summaries invalidated ${plan.summariesInvalidated.length}, index entries ${plan.indexEntriesToDelete.length}`;
    }
  } catch (error) {
    return { medianMs: null, note: `planForgetting refused the bench state: ${(error as Error).message}` };
  }
  times.sort((a, b) => a - b);
  return {
    medianMs: times[Math.floor(times.length / 2)]!,
    note: `planner only (no blob or index I/O), ${runs} runs; ${summary}`,
  };
}
