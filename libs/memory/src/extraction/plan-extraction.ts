import type { EventDataMap, EvidenceRole, ExtractionOutcome } from '@lomo/contracts';
import type { EvidenceState, MemoryBlobRef, MemoryState, MemoryVersionState, RecordExtraction } from '@lomo/domain';
import { normaliseText } from './memory-candidate';
import { memoryText, sameScope, type CurrentMemory } from './current-memories';
import { validateCandidates, type ValidCandidate } from './validate-candidates';

type VersionCreated = EventDataMap['MemoryVersionCreated'];

/** A new version before its text is in the BlobStore: the runner stores `text`, then calls toRecordExtraction. */
export type ExtractionVersionDraft = Omit<VersionCreated, 'text'> & { text: string };

export type CandidateOutcome = EventDataMap['MemoryExtractionRecorded']['outcomes'][number];

export interface ExtractionPlan {
  evidenceId: string;
  extractor: 'offline_rules' | 'model';
  candidates: number;
  /** One per candidate, in index order. */
  outcomes: CandidateOutcome[];
  versions: ExtractionVersionDraft[];
  supersessions: EventDataMap['MemoryVersionSuperseded'][];
  confirmations: EventDataMap['MemoryVersionConfirmed'][];
}

export interface PlanExtractionInput {
  evidence: EvidenceState;
  /** The evidence's text (the message, or the observed call's arguments). */
  text: string;
  /** What the extractor proposed, unchecked. */
  raw: readonly unknown[];
  extractor: 'offline_rules' | 'model';
  state: MemoryState;
  /** The person's current memories with their values (currentMemories over the BlobStore texts). */
  standing: readonly CurrentMemory[];
  now: string;
  newId: () => string;
}

type Decision =
  | { kind: 'create' }
  | { kind: 'refine' | 'correct' | 'confirm'; target: CurrentMemory }
  | { kind: 'ignore'; detail: string };

const JOINERS = new Set(['with', 'and', 'plus']);
const words = (value: string): Set<string> =>
  new Set(
    normaliseText(value)
      .split(/[\s,+&/、，和與与配加]+/u)
      .filter((w) => w.length > 0 && !JOINERS.has(w)),
  );

/** Every word of `inner` is in `outer`: "blue with off-white" extends "blue". */
const extendsValue = (outer: string, inner: string): boolean => [...words(inner)].every((w) => words(outer).has(w));

/**
 * One valid candidate against the standing memories of its subject and scope. The person's words
 * outrank a guess: an inferred candidate never touches an explicit memory, and an explicit one
 * starts its own chain beside an inferred one rather than turning the guess into a statement.
 */
function decide(check: ValidCandidate, standing: readonly CurrentMemory[]): Decision {
  const { candidate } = check;
  const same = standing.filter((m) => m.subject === candidate.subject && sameScope(m.scope, check.scope));
  if (candidate.origin === 'inferred' && same.some((m) => m.origin === 'explicit'))
    return { kind: 'ignore', detail: 'explicit_stands' };
  const target = same.find((m) => m.origin === candidate.origin);
  if (target === undefined)
    return candidate.relation === 'confirms' ? { kind: 'ignore', detail: 'nothing_to_confirm' } : { kind: 'create' };
  if (target.fingerprint === check.fingerprint) return { kind: 'confirm', target };
  if (candidate.relation === 'confirms' && extendsValue(target.value, candidate.value))
    return { kind: 'confirm', target };
  if (candidate.relation === 'corrects') return { kind: 'correct', target };
  if (candidate.relation === 'refines' || extendsValue(candidate.value, target.value))
    return { kind: 'refine', target };
  // A different value on the same subject is a change of mind or of fact: it gets validity.
  return { kind: 'correct', target };
}

const OUTCOME: Record<'create' | 'refine' | 'correct' | 'confirm', ExtractionOutcome> = {
  create: 'created',
  refine: 'refined',
  correct: 'corrected',
  confirm: 'confirmed',
};

/**
 * The extraction planner, pure: validates the raw candidates one by one, decides each valid one
 * (create, refine, correct, confirm, ignore) and drafts the versions, supersessions and CONFIRM
 * links of one RecordExtraction. Time and ids are injected.
 */
export function planExtraction(input: PlanExtractionInput): ExtractionPlan {
  const { evidence, state, now } = input;
  const plan: ExtractionPlan = {
    evidenceId: evidence.evidenceId,
    extractor: input.extractor,
    candidates: Math.min(input.raw.length, 100),
    outcomes: [],
    versions: [],
    supersessions: [],
    confirmations: [],
  };
  for (const check of validateCandidates(input.raw, evidence, input.text, state.suppressions)) {
    if (check.status !== 'valid') {
      const outcome = check.status === 'duplicate' ? 'ignored' : check.status;
      plan.outcomes.push({ index: check.index, outcome, detail: check.detail });
      continue;
    }
    const decision = decide(check, input.standing);
    if (decision.kind === 'ignore') {
      plan.outcomes.push({ index: check.index, outcome: 'ignored', detail: decision.detail });
      continue;
    }
    if (decision.kind === 'confirm') {
      const { memoryId, versionId } = decision.target;
      const linked = state.versions[versionId]?.evidence.some((e) => e.evidenceId === evidence.evidenceId);
      if (linked) {
        plan.outcomes.push({ index: check.index, outcome: 'ignored', detail: 'already_linked' });
      } else {
        plan.confirmations.push({ memoryId, versionId, evidenceId: evidence.evidenceId });
        plan.outcomes.push({ index: check.index, outcome: 'confirmed', memoryId, versionId, detail: 'same_value' });
      }
      continue;
    }
    const draft = draftVersion(input, check, decision);
    plan.versions.push(draft);
    if (decision.kind !== 'create') {
      plan.supersessions.push({
        memoryId: draft.memoryId,
        versionId: decision.target.versionId,
        byVersionId: draft.versionId,
        reason: decision.kind === 'refine' ? 'refined' : 'corrected',
        ...(decision.kind === 'correct' ? { validTo: now } : {}),
      });
    }
    plan.outcomes.push({
      index: check.index,
      outcome: OUTCOME[decision.kind],
      memoryId: draft.memoryId,
      versionId: draft.versionId,
      detail: decision.kind === 'create' ? 'new_subject' : `${check.candidate.relation}_${decision.kind}`,
    });
  }
  return plan;
}

function draftVersion(
  input: PlanExtractionInput,
  check: ValidCandidate,
  decision: Exclude<Decision, { kind: 'ignore' | 'confirm' }>,
): ExtractionVersionDraft {
  const { candidate } = check;
  const evidenceId = input.evidence.evidenceId;
  const parent = decision.kind === 'create' ? undefined : input.state.versions[decision.target.versionId];
  if (decision.kind !== 'create' && parent === undefined)
    throw new Error(`planExtraction: standing version ${decision.target.versionId} is not in the state`);
  const memoryId = decision.kind === 'create' ? input.newId() : decision.target.memoryId;
  const base = {
    memoryId,
    versionId: input.newId(),
    version: nextVersion(input.state, memoryId),
    subject: candidate.subject,
    kind: candidate.kind,
    scope: check.scope,
    origin: candidate.origin,
    text: memoryText(candidate.claim, candidate.subject, candidate.value),
    fingerprint: check.fingerprint,
    validFrom: input.now,
  };
  if (parent === undefined)
    return { ...base, evidence: [{ evidenceId, role: 'ORIGIN' }], derivedFrom: [], cause: 'extracted' };
  if (decision.kind === 'refine')
    return {
      ...base,
      evidence: refinedEvidence(parent, evidenceId),
      derivedFrom: [parent.versionId],
      cause: 'refined',
    };
  // A correction rests on the new words only: the old value was wrong or has changed.
  return { ...base, evidence: [{ evidenceId, role: 'ORIGIN' }], derivedFrom: [parent.versionId], cause: 'corrected' };
}

/**
 * A refinement still says what its parent said, so it carries the parent's ORIGIN and REFINE
 * evidence (forgetting any of it purges the refinement too) and adds this evidence as REFINE.
 * CONFIRM links stay with the parent: a confirmation never made the claim.
 */
function refinedEvidence(parent: MemoryVersionState, evidenceId: string): { evidenceId: string; role: EvidenceRole }[] {
  const carried = parent.evidence.filter((e) => e.role !== 'CONFIRM' && e.evidenceId !== evidenceId);
  return [...carried, { evidenceId, role: 'REFINE' }];
}

function nextVersion(state: MemoryState, memoryId: string): number {
  const chain = state.memories[memoryId];
  if (chain === undefined) return 1;
  return Math.max(0, ...chain.versionIds.map((id) => state.versions[id]?.version ?? 0)) + 1;
}

/**
 * The command the runner sends once every draft's text is in the BlobStore (`refs` by version
 * id). The outcome record holds reason codes, never memory text.
 */
export function toRecordExtraction(
  plan: ExtractionPlan,
  refs: Readonly<Record<string, MemoryBlobRef>>,
): RecordExtraction {
  return {
    type: 'RecordExtraction',
    extraction: {
      evidenceId: plan.evidenceId,
      extractor: plan.extractor,
      candidates: plan.candidates,
      outcomes: plan.outcomes,
    },
    versions: plan.versions.map((draft) => {
      const ref = refs[draft.versionId];
      if (ref === undefined) throw new Error(`toRecordExtraction: no blob ref for version ${draft.versionId}`);
      return { ...draft, text: ref };
    }),
    supersessions: plan.supersessions,
    confirmations: plan.confirmations,
  };
}
