import {
  isSupporting,
  isSuppressed,
  lastVersionNumber,
  type EvidenceState,
  type MemoryState,
  type MemoryVersionState,
} from '@lomo/domain';
import type { DroppedDraft, PlannedText, PlannedVersion, Reextract, VersionDraft } from './forgetting-plan';

const scopeKey = (subject: string, scope: VersionDraft['scope']) =>
  scope.kind === 'task' ? `${subject}|task:${scope.taskId}` : `${subject}|long_term`;

export interface ReextractionInput {
  state: MemoryState;
  /** The versions the cascade purges. */
  purged: readonly MemoryVersionState[];
  /** Memories whose standing version is purged: re-extracted versions continue these chains. */
  chainsLosingCurrent: readonly string[];
  revoked: ReadonlySet<string>;
  /** The fingerprints this forgetting suppresses. */
  suppressed: ReadonlySet<string>;
  now: string;
  newId: () => string;
  reextract: Reextract;
}

export interface Reextraction {
  versions: PlannedVersion[];
  texts: PlannedText[];
  dropped: DroppedDraft[];
}

/**
 * The evidence the purged chains stood on that is still valid: not revoked, and not the same words
 * as forgotten evidence (a message said twice is forgotten twice), in the order it was recorded.
 */
function remainingEvidence(input: ReextractionInput): EvidenceState[] {
  const { state, revoked, suppressed } = input;
  const losing = new Set(input.chainsLosingCurrent);
  const ids = new Set<string>();
  for (const v of input.purged) if (losing.has(v.memoryId)) for (const l of v.evidence) ids.add(l.evidenceId);
  return [...ids]
    .map((id) => state.evidence[id])
    .filter((e): e is EvidenceState => e !== undefined && !e.revoked && !revoked.has(e.evidenceId))
    .filter((e) => !suppressed.has(e.fingerprint) && !isSuppressed(state, e.fingerprint, e.ordinal))
    .sort((a, b) => a.ordinal - b.ordinal);
}

/** Why a draft may not become a version, or null when it may. */
function dropReason(
  input: ReextractionInput,
  draft: VersionDraft,
  usable: ReadonlyMap<string, EvidenceState>,
  known: Set<string>,
): DroppedDraft['reason'] | null {
  if (draft.evidence.some((l) => !usable.has(l.evidenceId))) return 'unusable_evidence';
  const supporting = draft.evidence.filter((l) => isSupporting(l.role));
  if (supporting.length === 0) return 'unsupported';
  const latest = Math.max(...supporting.map((l) => usable.get(l.evidenceId)?.ordinal ?? 0));
  // The forgotten fact must not come back from what is left (article §7.3).
  if (input.suppressed.has(draft.fingerprint) || isSuppressed(input.state, draft.fingerprint, latest))
    return 'suppressed';
  if (known.has(scopeKey(draft.fingerprint, draft.scope))) return 'known';
  return null;
}

/**
 * The claims that still stand in each scope: a draft repeating one adds nothing. Only the drafts'
 * claims are ever looked up, so only versions making one of them are keyed (a scan of 10 000
 * versions then builds a handful of keys, not 10 000).
 */
function standingClaims(
  state: MemoryState,
  purged: readonly MemoryVersionState[],
  claims: ReadonlySet<string>,
): Set<string> {
  const purgedIds = new Set(purged.map((v) => v.versionId));
  const known = new Set<string>();
  for (const v of Object.values(state.versions))
    if (claims.has(v.fingerprint) && v.status === 'current' && !purgedIds.has(v.versionId))
      known.add(scopeKey(v.fingerprint, v.scope));
  return known;
}

export function planReextraction(input: ReextractionInput): Reextraction {
  const { state } = input;
  const evidence = remainingEvidence(input);
  const result: Reextraction = { versions: [], texts: [], dropped: [] };
  if (evidence.length === 0) return result;
  const allSuppressed = new Set([...input.suppressed, ...state.suppressions.map((s) => s.fingerprint)]);
  const drafts = input.reextract(evidence, allSuppressed);
  const usable = new Map(evidence.map((e) => [e.evidenceId, e]));
  const known = standingClaims(state, input.purged, new Set(drafts.map((d) => d.fingerprint)));
  // Each losing chain takes at most one re-extracted version of its own subject and scope.
  const openChains = new Map<string, string[]>();
  for (const memoryId of input.chainsLosingCurrent) {
    const chain = state.memories[memoryId];
    const key = scopeKey(chain.subject, chain.scope);
    openChains.set(key, [...(openChains.get(key) ?? []), memoryId]);
  }
  for (const draft of drafts) {
    const reason = dropReason(input, draft, usable, known);
    if (reason !== null) {
      result.dropped.push({ fingerprint: draft.fingerprint, subject: draft.subject, reason });
      continue;
    }
    known.add(scopeKey(draft.fingerprint, draft.scope));
    const memoryId = openChains.get(scopeKey(draft.subject, draft.scope))?.shift() ?? input.newId();
    const versionId = input.newId();
    // Without the person's own words left, what remains can only be a guess.
    const byMessage = draft.evidence.some(
      (l) => isSupporting(l.role) && usable.get(l.evidenceId)?.source.kind === 'message',
    );
    const textKey = `memory:${versionId}`;
    result.versions.push({
      textKey,
      data: {
        memoryId,
        versionId,
        version: lastVersionNumber(state, memoryId) + 1,
        subject: draft.subject,
        kind: draft.kind,
        scope: draft.scope,
        origin: draft.origin === 'explicit' && byMessage ? 'explicit' : 'inferred',
        fingerprint: draft.fingerprint,
        validFrom: draft.validFrom ?? input.now,
        evidence: draft.evidence.map((l) => ({ evidenceId: l.evidenceId, role: l.role })),
        derivedFrom: [],
        cause: 'reextracted',
      },
    });
    result.texts.push({ key: textKey, text: draft.text });
  }
  return result;
}
