import { createHash } from 'node:crypto';
import { z } from 'zod';
import { memoryKind, memoryOrigin, memorySubject } from '@lomo/contracts';
import { toTraditional } from '@lomo/llm';

/**
 * One memory candidate as an extractor proposes it (article §7.1, §7.4): what it is about, what it
 * claims, and the words of the evidence it rests on. The same schema is the model's structured
 * output (strict mode: every property required), so the offline rules and a model are checked
 * alike, one candidate at a time.
 */
export const memoryCandidate = z.strictObject({
  /** Dotted lowercase key, the chain's identity: "brand.colour.main", "style.palette". */
  subject: memorySubject,
  kind: memoryKind,
  /** Task-local memories take the task of their evidence; a candidate cannot name another task. */
  scope: z.enum(['long_term', 'task']),
  origin: memoryOrigin,
  /**
   * How the evidence reads against what is already remembered. A hint only: the planner still
   * decides from the standing memories (a "correction" of nothing is a creation, a restatement of
   * a different value is a change). `corrects` is what tells a change from a refinement when the
   * new value does not merely extend the old one.
   */
  relation: z.enum(['states', 'refines', 'corrects', 'confirms']),
  /** A short sentence for people and prompts: "The brand's main colour is blue." */
  claim: z.string().min(1).max(300),
  /** The normalised value the fingerprint is made of: "blue", "muted", "16:9". */
  value: z.string().min(1).max(120),
  /** The quote of the evidence it rests on, verbatim (checked against the evidence text). */
  supports: z.string().min(1).max(500),
});
export type MemoryCandidate = z.infer<typeof memoryCandidate>;

/** The extractor's structured answer: candidates in order (their index is their outcome's index). */
export const extractionAnswer = z.strictObject({ candidates: z.array(memoryCandidate).max(20) });
export type ExtractionAnswer = z.infer<typeof extractionAnswer>;

export const EXTRACTION_ANSWER_SCHEMA_NAME = 'extract_memories';

/**
 * Text compared across scripts and spellings: NFKC (full-width forms), lower case, one space,
 * Simplified → Traditional for the common characters (so 蓝色 and 藍色 are one value), no
 * trailing punctuation.
 */
export function normaliseText(text: string): string {
  return foldText(text)
    .replace(/[\s.,;:!?。，；：！？、]+$/u, '')
    .trim();
}

/** Like normaliseText, with curly quotes made straight and nothing cut: evidence text as compared. */
export function foldText(text: string): string {
  return toTraditional(text.normalize('NFKC').toLowerCase())
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The fingerprint of a piece of evidence's words, sha256 of the normalised text: the same words
 * said twice have one fingerprint, so a forgetting of them is a forgetting of both.
 */
export function evidenceFingerprint(text: string): string {
  return createHash('sha256').update(normaliseText(text)).digest('hex');
}

/**
 * The fingerprint of a claim, sha256 of the normalised `subject=value`: what a forgetting
 * suppresses, so the same claim extracted again from old evidence is recognised whatever its
 * wording, while a different value on the same subject is not.
 */
export function memoryFingerprint(subject: string, value: string): string {
  return createHash('sha256')
    .update(`${subject}=${normaliseText(value)}`)
    .digest('hex');
}
