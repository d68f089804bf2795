import type { EventEnvelope } from '@lomo/contracts';
import type { EvidenceState, MemoryState } from '@lomo/domain';
import { memoryText, validateCandidates, type MemoryExtractor } from '../extraction';
import type { VersionDraft } from '../forgetting';
import type { EvidenceTexts } from './evidence-texts';

/**
 * The forgetting planner re-extracts synchronously from the evidence it finds left; the extractor
 * (rules or a model) is asynchronous. So the runner asks the extractor first, for every piece of
 * evidence the purged versions stood on, and the planner's `reextract` only picks from these
 * answers, checked one by one like any extraction.
 */
export async function preExtract(
  deps: { extractor: MemoryExtractor; texts: EvidenceTexts },
  state: MemoryState,
  evidence: readonly EvidenceState[],
): Promise<Map<string, VersionDraft[]>> {
  const cache = new Map<string, EventEnvelope[]>();
  const out = new Map<string, VersionDraft[]>();
  for (const e of evidence) {
    const text = await deps.texts.textOf(e.source, cache);
    if (text === undefined) continue;
    const raw = await deps.extractor.extract({ evidence: e, text, standing: [], recentObservations: [] });
    const drafts: VersionDraft[] = [];
    for (const check of validateCandidates(raw, e, text, state.suppressions)) {
      if (check.status !== 'valid') continue;
      const { candidate } = check;
      drafts.push({
        subject: candidate.subject,
        kind: candidate.kind,
        scope: check.scope,
        origin: candidate.origin,
        text: memoryText(candidate.claim, candidate.subject, candidate.value),
        fingerprint: check.fingerprint,
        evidence: [{ evidenceId: e.evidenceId, role: 'ORIGIN' }],
      });
    }
    out.set(e.evidenceId, drafts);
  }
  return out;
}

/**
 * One draft per subject, scope and origin from what is left: the latest statement's claim, standing
 * on every remaining piece of evidence that spoke to it (the first as ORIGIN, later ones REFINE).
 */
export function mergeDrafts(
  answers: ReadonlyMap<string, readonly VersionDraft[]>,
  remaining: readonly EvidenceState[],
  suppressed: ReadonlySet<string>,
): VersionDraft[] {
  const merged = new Map<string, VersionDraft>();
  for (const e of [...remaining].sort((a, b) => a.ordinal - b.ordinal)) {
    for (const draft of answers.get(e.evidenceId) ?? []) {
      if (suppressed.has(draft.fingerprint)) continue;
      const key = `${draft.subject}|${draft.scope.kind}|${draft.scope.kind === 'task' ? draft.scope.taskId : ''}|${draft.origin}`;
      const before = merged.get(key);
      merged.set(
        key,
        before === undefined
          ? draft
          : { ...draft, evidence: [...before.evidence, { evidenceId: e.evidenceId, role: 'REFINE' as const }] },
      );
    }
  }
  return [...merged.values()];
}
