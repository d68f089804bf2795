import { streams, type EventEnvelope, type ForgettingReport } from '@lomo/contracts';
import {
  currentProfile,
  currentVersion,
  dependencyIndex,
  forgettingScope,
  type EvidenceState,
  type ForgettingScope,
  type MemoryState,
} from '@lomo/domain';
import { planForgetting, toApplyForgetting, type StandingMemory, type VersionDraft } from '../forgetting';
import { renderProfile } from '../profile';
import { applyExclusion, findExclusion, type TaskExclusion } from './exclude-in-tasks';
import type { MemoryRunner } from './memory-runner';
import { mergeDrafts, preExtract } from './reextraction-drafts';
import { parseMemoryText } from '../extraction';
import { claimsOf, renderEpisodeSummary } from './render-texts';

/**
 * A confirmed forgetting, end to end (article §7.3, figure 8), in steps that each survive a crash:
 * 1. plan the cascade from the state (revoke, purge, detach, suppress, re-extract, profile,
 *    summaries), store the new texts, and append it all as one ApplyForgetting;
 * 2. delete the blobs it names, remove the recall index entries, and exclude by provenance in
 *    every task of the person: the forgotten messages and the steps that relied on them;
 * 3. append ForgettingCompleted with the report.
 * Step 1 happens once (the decider refuses a second apply); 2 and 3 are idempotent and are redone
 * from the applied events when a crash interrupted them.
 */
export async function runForgetting(
  runner: MemoryRunner,
  workspaceId: string,
  userId: string,
  forgettingId: string,
): Promise<ForgettingReport | null> {
  const deps = runner.runnerDeps;
  let state = await runner.fold(workspaceId, userId);
  const forgetting = state.forgettings[forgettingId];
  if (forgetting === undefined || forgetting.status === 'requested' || forgetting.status === 'cancelled') return null;
  if (forgetting.status === 'completed') return forgetting.report;
  const metadata = { ...runner.metadata(workspaceId), correlationId: forgettingId };

  let appliedNow: { applied: EventEnvelope[]; refs: RefOf } | undefined;
  if (forgetting.status === 'confirmed') {
    // One dependency index for the scope here and the planner's (a pass over every version).
    const index = dependencyIndex(state);
    const scope = forgettingScope(state, forgetting.evidenceIds, index);
    const revoked = new Set(forgetting.evidenceIds);
    const left = new Set<string>();
    for (const v of scope.purged) for (const l of v.evidence) if (!revoked.has(l.evidenceId)) left.add(l.evidenceId);
    const leftEvidence = [...left].map((id) => state.evidence[id]).filter((e): e is EvidenceState => e !== undefined);
    const suppressedNow = new Set([
      ...scope.purged.map((v) => v.fingerprint),
      ...forgetting.evidenceIds.flatMap((id) => (state.evidence[id] ? [state.evidence[id].fingerprint] : [])),
      ...state.suppressions.map((s) => s.fingerprint),
    ]);
    const answers = await preExtract({ extractor: deps.extractor, texts: runner.texts }, state, leftEvidence);
    const stored = await runner.textsByHash(renderedHashes(state, scope));
    const plan = planForgetting({
      state,
      index,
      forgettingId,
      now: deps.clock.now().toISOString(),
      newId: () => deps.ids.uuid(),
      reextract: (remaining, suppressed) => mergeDrafts(answers, remaining, suppressed),
      renderProfile: (standing) => renderProfile(profileLines(standing, stored)),
      // What is left of the summary's sources: its standing memories, and what its remaining
      // evidence re-extracts to (a new memory, such as a pairing once a main colour is forgotten).
      renderSummary: ({ summary, evidence, memories }) =>
        renderEpisodeSummary(summary.taskId, [
          ...new Set([...claimsOf(memories, stored), ...remainingClaims(answers, evidence, suppressedNow)]),
        ]),
    });
    const refs = new Map<string, Awaited<ReturnType<MemoryRunner['putText']>>>();
    const put = await Promise.all(plan.texts.map((t) => runner.putText(t.text)));
    plan.texts.forEach((t, i) => refs.set(t.key, put[i]!));
    const before = state;
    const result = await runner.decide(workspaceId, userId, [toApplyForgetting(plan, refs)], undefined, metadata);
    state = await runner.fold(workspaceId, userId);
    if (result.changed && result.revision !== 'no_stream') {
      // Just applied: its events are the batch that ends at the revision written, and the refs of
      // what it purged are in the state it was decided on (a text only ever changes to null).
      const from = result.revision - result.events.length + 1;
      const batch = await deps.store.readStream(streams.memory(workspaceId, userId), { fromRevision: from });
      appliedNow = { applied: batch.filter((e) => e.metadata.correlationId === forgettingId), refs: refsIn(before) };
    }
  }

  // Step 2, from what the apply recorded (so a re-run after a crash does the same). The apply's
  // own events (appended with the forgetting id as correlation); on a re-run, read from the whole
  // stream with the refs its creation events hold.
  let applied = appliedNow?.applied;
  let refs = appliedNow?.refs;
  if (applied === undefined || refs === undefined) {
    const recorded = await deps.store.readStream(streams.memory(workspaceId, userId));
    applied = recorded.filter((e) => e.metadata.correlationId === forgettingId);
    refs = createdRefs(recorded);
  }
  const blobs = blobsToDelete(applied, refs);
  await Promise.all(blobs.map((hash) => deps.blobs.delete(hash)));
  const purged = applied
    .filter((e) => e.type === 'MemoryVersionPurged')
    .map((e) => (e.data as { versionId: string }).versionId);
  const invalidated = applied
    .filter((e) => e.type === 'EpisodeSummaryInvalidated')
    .map((e) => (e.data as { summaryId: string }).summaryId);
  const indexEntries = [...purged.map((id) => `memory:${id}`), ...invalidated.map((id) => `summary:${id}`)];
  // Just applied: only the documents its events touch change; on a re-run, the whole person.
  if (appliedNow === undefined) await deps.indexer?.syncPerson({ workspaceId, userId }, state);
  else await deps.indexer?.syncDocuments({ workspaceId, userId }, state, touchedDocuments(applied));

  const forgottenMessages = new Set(
    forgetting.evidenceIds.flatMap((id) => {
      const source = state.evidence[id]?.source;
      return source?.kind === 'message' ? [source.messageId] : [];
    }),
  );
  const tasks = new Set(
    Object.values(state.evidence).flatMap((e) => [
      ...(e.source.taskId === undefined ? [] : [e.source.taskId]),
      ...e.copiedTo,
    ]),
  );
  const excluded: TaskExclusion[] = [];
  // Drills' no_forgetting_cascade mutation (test-control README): the tasks keep the forgotten
  // messages and the steps that relied on them in their prompts; the memory side still runs.
  const cascade = deps.testControl?.mutation('no_forgetting_cascade') !== true;
  for (const taskId of cascade ? [...tasks].sort() : []) {
    const exclusion = await findExclusion(deps.store, taskId, forgottenMessages, new Set(purged), forgettingId);
    if (exclusion === null) continue;
    await applyExclusion(deps, exclusion, forgettingId, metadata);
    excluded.push(exclusion);
  }

  const report = reportOf(applied, { blobs, indexEntries, excluded, state, forgettingId });
  await runner.decide(workspaceId, userId, [{ type: 'CompleteForgetting', forgettingId, report }], undefined, metadata);
  deps.logger.info(
    {
      workspaceId,
      forgettingId,
      purged: report.purgedVersionIds.length,
      reextracted: report.reextractedVersionIds.length,
      tasks: excluded.length,
    },
    'forgetting completed',
  );
  return report;
}

function remainingClaims(
  answers: ReadonlyMap<string, readonly VersionDraft[]>,
  evidence: readonly EvidenceState[],
  suppressed: ReadonlySet<string>,
): string[] {
  return evidence.flatMap((e) =>
    (answers.get(e.evidenceId) ?? [])
      .filter((d) => !suppressed.has(d.fingerprint))
      .map((d) => parseMemoryText(d.text).claim),
  );
}

/**
 * The blob hashes the renderers can read: the texts of what the profile in force and each summary
 * the forgetting invalidates list, each with its memory's current version (what stands in for a
 * listed version that no longer does: StandingAfter). Re-extracted drafts carry their own text.
 * Reading every stored text instead costs one blob read per memory (10 000 at 10 000 memories).
 */
function renderedHashes(state: MemoryState, scope: ForgettingScope): string[] {
  const listed = [
    ...(currentProfile(state)?.memoryVersionIds ?? []),
    ...scope.summariesToInvalidate.flatMap((s) => s.memoryVersionIds),
  ];
  const out = new Set<string>();
  for (const id of listed) {
    const version = state.versions[id];
    if (version === undefined) continue;
    if (version.text !== null) out.add(version.text.hash);
    const current = currentVersion(state, version.memoryId);
    if (current?.text != null) out.add(current.text.hash);
  }
  return [...out];
}

/** The recall documents an apply's events change: purged and new versions, invalidated, superseded and new summaries. */
function touchedDocuments(applied: readonly EventEnvelope[]): string[] {
  return applied.flatMap((e) => {
    const d = e.data as { versionId?: string; summaryId?: string; supersedes?: string };
    if (e.type === 'MemoryVersionPurged' || e.type === 'MemoryVersionCreated') return [`memory:${d.versionId}`];
    if (e.type === 'EpisodeSummaryInvalidated') return [`summary:${d.summaryId}`];
    if (e.type === 'EpisodeSummaryWritten')
      return [`summary:${d.summaryId}`, ...(d.supersedes === undefined ? [] : [`summary:${d.supersedes}`])];
    return [];
  });
}

type RefOf = (key: string) => string | undefined;

/** Blob refs by what they belong to (as createdRefs), looked up in a state: a text only ever changes to null. */
function refsIn(state: MemoryState): RefOf {
  return (key) => {
    const id = key.slice(2);
    if (key.startsWith('v:')) return state.versions[id]?.text?.hash;
    if (key.startsWith('p:')) return state.profiles.find((p) => p.version === Number(id))?.text?.hash;
    return state.summaries[id]?.text?.hash;
  };
}

function profileLines(standing: readonly StandingMemory[], stored: ReadonlyMap<string, string>) {
  return standing
    .filter((m) => m.origin === 'explicit' && m.scope.kind === 'long_term')
    .flatMap((m) => {
      const text = m.draftText ?? (m.text === null ? undefined : stored.get(m.text.hash));
      return text === undefined ? [] : [{ subject: m.subject, text: parseMemoryText(text).claim }];
    });
}

/** Blob refs by what they belong to: versions by id, profiles by version, summaries by id. */
function createdRefs(events: readonly EventEnvelope[]): RefOf {
  const refs = new Map<string, string>();
  for (const e of events) {
    const d = e.data as { versionId?: string; version?: number; summaryId?: string; text?: { hash: string } };
    if (e.type === 'MemoryVersionCreated') refs.set(`v:${d.versionId}`, d.text!.hash);
    if (e.type === 'ProfileVersionPublished') refs.set(`p:${d.version}`, d.text!.hash);
    if (e.type === 'EpisodeSummaryWritten') refs.set(`s:${d.summaryId}`, d.text!.hash);
  }
  return (key) => refs.get(key);
}

function blobsToDelete(applied: readonly EventEnvelope[], refOf: RefOf): string[] {
  const out = new Set<string>();
  for (const e of applied) {
    const d = e.data as { versionId?: string; version?: number; summaryId?: string };
    const key =
      e.type === 'MemoryVersionPurged'
        ? `v:${d.versionId}`
        : e.type === 'ProfileVersionPurged'
          ? `p:${d.version}`
          : e.type === 'EpisodeSummaryInvalidated'
            ? `s:${d.summaryId}`
            : undefined;
    const hash = key === undefined ? undefined : refOf(key);
    if (hash !== undefined) out.add(hash);
  }
  // A text still held by something that stands (the same words in a new version) is kept.
  const kept = new Set<string>();
  for (const e of applied) {
    const d = e.data as { text?: { hash: string } };
    if (
      (e.type === 'MemoryVersionCreated' ||
        e.type === 'ProfileVersionPublished' ||
        e.type === 'EpisodeSummaryWritten') &&
      d.text
    )
      kept.add(d.text.hash);
  }
  return [...out].filter((h) => !kept.has(h)).sort();
}

function reportOf(
  applied: readonly EventEnvelope[],
  extra: {
    blobs: string[];
    indexEntries: string[];
    excluded: TaskExclusion[];
    state: MemoryState;
    forgettingId: string;
  },
): ForgettingReport {
  const data = <T>(type: string) => applied.filter((e) => e.type === type).map((e) => e.data as T);
  const profile = data<{ version: number }>('ProfileVersionPublished')[0];
  return {
    revokedEvidenceIds: data<{ evidenceIds: string[] }>('EvidenceRevoked').flatMap((d) => d.evidenceIds),
    purgedVersionIds: data<{ versionId: string }>('MemoryVersionPurged').map((d) => d.versionId),
    reextractedVersionIds: data<{ versionId: string }>('MemoryVersionCreated').map((d) => d.versionId),
    detached: data<{ versionId: string; evidenceId: string }>('MemoryEvidenceDetached').map(
      ({ versionId, evidenceId }) => ({
        versionId,
        evidenceId,
      }),
    ),
    profileVersion: profile?.version ?? null,
    purgedProfileVersions: data<{ version: number }>('ProfileVersionPurged').map((d) => d.version),
    summariesInvalidated: data<{ summaryId: string }>('EpisodeSummaryInvalidated').map((d) => d.summaryId),
    summariesRebuilt: data<{ summaryId: string }>('EpisodeSummaryWritten').map((d) => d.summaryId),
    indexEntriesDeleted: extra.indexEntries,
    suppressions: data<{ fingerprints: string[] }>('ExtractionSuppressed').flatMap((d) => d.fingerprints),
    blobsDeleted: extra.blobs,
    excluded: extra.excluded,
  };
}
