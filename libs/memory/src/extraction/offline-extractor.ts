import type { MemoryCandidate } from './memory-candidate';
import type { ExtractionRequest, MemoryExtractor } from './memory-extractor.port';
import { inferredClaim } from './offline-claims';
import { findValues } from './offline-lexicon';
import { unitCandidates, type Unit } from './offline-rules';

/** Generations with the same style (this one included) before a taste is inferred. */
export const INFER_AFTER_OBSERVATIONS = 3;

// Clause ends: sentence punctuation (not a decimal point), and a turn of contrast ("…, but this
// time …"), which is where a long-term preference and a one-off request part.
const BOUNDARY = /[.](?!\d)|[!?。！？;；\n]|,?\s+but\s+|，?但是|，?不過|，?不过|，?可是/giu;
const QUOTED = [/"[^"\n]*"/g, /“[^”]*”/g, /「[^」]*」/g, /『[^』]*』/g, /```[\s\S]*?```/g, /^ *>.*$/gm];

/** The clauses of a message, each a substring of it; clauses touching quoted or pasted text are dropped. */
export function clausesOf(text: string): Unit[] {
  const quoted: [number, number][] = [];
  for (const pattern of QUOTED) for (const m of text.matchAll(pattern)) quoted.push([m.index, m.index + m[0].length]);
  const units: Unit[] = [];
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const clause = raw.trim();
    const from = start + lead;
    const to = from + clause.length;
    if (clause.length > 0 && !quoted.some(([a, b]) => from < b && a < to)) units.push({ text: clause });
  };
  for (const m of text.matchAll(BOUNDARY)) {
    push(m.index);
    start = m.index + m[0].length;
  }
  push(text.length);
  return units;
}

/**
 * A style that this generation shares with enough earlier ones becomes an inferred preference
 * (article §7.1: a guess, kept apart from what the person said). Observations never yield an
 * explicit candidate, nor a fact.
 */
function inferred(request: ExtractionRequest): MemoryCandidate[] {
  const out: MemoryCandidate[] = [];
  const earlier = request.recentObservations.map((t) => new Set(findValues(t).map((v) => v.value)));
  for (const v of findValues(request.text)) {
    if (v.kind !== 'style' || out.some((c) => c.value === v.value)) continue;
    const seen = 1 + earlier.filter((values) => values.has(v.value)).length;
    if (seen < INFER_AFTER_OBSERVATIONS) continue;
    out.push({
      subject: 'style.visual',
      kind: 'preference',
      scope: 'long_term',
      origin: 'inferred',
      relation: 'states',
      claim: inferredClaim(v.value),
      value: v.value,
      supports: v.surface,
    });
  }
  return out;
}

/**
 * The offline model's extraction, by the simple rules documented in libs/memory/README.md
 * ("Offline extraction rules"), so `npm start` shows memories forming with no API key. English and
 * Chinese (both scripts). Deterministic and synchronous under the async port.
 */
export class OfflineMemoryExtractor implements MemoryExtractor {
  readonly kind = 'offline_rules' as const;

  async extract(request: ExtractionRequest): Promise<unknown[]> {
    return extractOffline(request);
  }
}

export function extractOffline(request: ExtractionRequest): MemoryCandidate[] {
  if (request.evidence.source.kind === 'observation') return inferred(request);
  return clausesOf(request.text).flatMap((unit) => unitCandidates(unit, request.standing));
}
