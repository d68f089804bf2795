import type { MemoryScope } from '@lomo/contracts';
import type { EvidenceState, Suppression } from '@lomo/domain';
import { foldText, memoryCandidate, memoryFingerprint, normaliseText, type MemoryCandidate } from './memory-candidate';
import { sameScope } from './current-memories';

/** At most this many candidates per extraction: the outcome record's bound (contracts). */
export const MAX_CANDIDATES = 100;

export type CandidateCheck =
  | { index: number; status: 'malformed' | 'unsupported' | 'conflicting' | 'suppressed' | 'duplicate'; detail: string }
  | { index: number; status: 'valid'; candidate: MemoryCandidate; scope: MemoryScope; fingerprint: string };

export type ValidCandidate = Extract<CandidateCheck, { status: 'valid' }>;

const QUOTED = [/"[^"\n]*"/g, /「[^」]*」/g, /『[^』]*』/g, /```[\s\S]*?```/g, /^ *>.*$/gm];

/** Spans of the text inside quotation marks, code fences or `>` lines: someone else's words. */
function quotedSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const pattern of QUOTED) for (const m of text.matchAll(pattern)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/**
 * Why the evidence does not support the candidate, or null. The quote must be the evidence's own
 * words; an observation (what the agent generated) supports only an inferred preference; quoted
 * or pasted text (a web page, a tool's output) is not the person speaking about themselves.
 */
function unsupported(candidate: MemoryCandidate, evidence: EvidenceState, text: string): string | null {
  if (evidence.revoked) return 'evidence_revoked';
  const observed = evidence.source.kind === 'observation';
  if (observed && candidate.origin === 'explicit') return 'explicit_from_observation';
  if (observed && candidate.kind === 'fact') return 'fact_from_observation';
  const haystack = foldText(text);
  const quote = normaliseText(candidate.supports);
  if (quote.length === 0) return 'quote_not_in_evidence';
  const hits: number[] = [];
  for (let at = haystack.indexOf(quote); at >= 0; at = haystack.indexOf(quote, at + 1)) hits.push(at);
  if (hits.length === 0) return 'quote_not_in_evidence';
  if (!observed) {
    const spans = quotedSpans(haystack);
    const inside = (at: number) => spans.some(([from, to]) => at >= from && at + quote.length <= to);
    if (hits.every(inside)) return 'quoted_content';
  }
  if (candidate.scope === 'task' && taskOf(evidence) === undefined) return 'no_task';
  return null;
}

const taskOf = (evidence: EvidenceState): string | undefined => evidence.source.taskId;

function scopeOf(candidate: MemoryCandidate, evidence: EvidenceState): MemoryScope {
  const taskId = taskOf(evidence);
  return candidate.scope === 'task' && taskId !== undefined ? { kind: 'task', taskId } : { kind: 'long_term' };
}

/** The first few schema problems, as paths and codes (never the candidate's text). */
function malformedDetail(error: { issues: readonly { path: PropertyKey[]; code: string }[] }): string {
  const parts = error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(root)'}:${i.code}`);
  return `schema:${parts.join(',')}`.slice(0, 300);
}

/**
 * Each raw candidate on its own (article §7.4): one malformed, unsupported or conflicting
 * candidate is recorded as such and never drops the others. Order of the checks: the schema, the
 * evidence, the other candidates of this extraction, then suppressions of forgotten claims.
 */
export function validateCandidates(
  raw: readonly unknown[],
  evidence: EvidenceState,
  text: string,
  suppressions: readonly Suppression[],
): CandidateCheck[] {
  const checks: CandidateCheck[] = raw.slice(0, MAX_CANDIDATES).map((item, index) => {
    const parsed = memoryCandidate.safeParse(item);
    if (!parsed.success) return { index, status: 'malformed', detail: malformedDetail(parsed.error) };
    const candidate = parsed.data;
    const reason = unsupported(candidate, evidence, text);
    if (reason !== null) return { index, status: 'unsupported', detail: reason };
    const fingerprint = memoryFingerprint(candidate.subject, candidate.value);
    return { index, status: 'valid', candidate, scope: scopeOf(candidate, evidence), fingerprint };
  });
  markConflicts(checks);
  // A forgetting covers the evidence recorded up to it; a later statement is new evidence.
  return checks.map((check) => {
    if (check.status !== 'valid') return check;
    const covered = suppressions.some(
      (s) => s.fingerprint === check.fingerprint && s.throughEvidence >= evidence.ordinal,
    );
    return covered ? { index: check.index, status: 'suppressed', detail: 'forgotten_claim' } : check;
  });
}

/**
 * Two candidates of one extraction on the same subject and scope with different values: neither
 * is trusted (the evidence says two things, or the extractor misread it). The same claim twice
 * keeps the first and ignores the repeat.
 */
function markConflicts(checks: CandidateCheck[]): void {
  const valid = checks.filter((c): c is ValidCandidate => c.status === 'valid');
  for (const a of valid) {
    const rivals = valid.filter(
      (b) => b !== a && b.candidate.subject === a.candidate.subject && sameScope(b.scope, a.scope),
    );
    const disagreeing = rivals.find((b) => b.fingerprint !== a.fingerprint);
    if (disagreeing !== undefined) {
      checks[a.index] = {
        index: a.index,
        status: 'conflicting',
        detail: `disagrees_with_candidate_${disagreeing.index}`,
      };
    } else if (rivals.some((b) => b.index < a.index)) {
      checks[a.index] = { index: a.index, status: 'duplicate', detail: 'duplicate_candidate' };
    }
  }
}
