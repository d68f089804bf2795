import { isStopword } from './stopwords';

const HAN = /\p{Script=Han}/u;
// Runs of letters/digits (any script) or of Han characters; everything else separates.
const RUNS = /[\p{Script=Han}]+|[\p{L}\p{N}][\p{L}\p{N}\p{M}'’_-]*/gu;

/**
 * The one segmentation routing uses everywhere (search index, retrieval, duplicate check, the
 * offline model's matching): lowercase words without stopwords; a Han run becomes its
 * character bigrams (a single character stays as it is), which needs no dictionary and matches
 * Chinese words of any length by their overlapping pairs. NFKC first, so full-width forms and
 * compatibility characters match their plain ones.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(RUNS)) {
    const run = match[0];
    if (HAN.test(run[0]!)) {
      const chars = [...run].filter((c) => !isStopword(c) || run.length <= 2);
      if (chars.length === 1) tokens.push(chars[0]!);
      for (let i = 0; i + 1 < chars.length; i += 1) tokens.push(chars[i]! + chars[i + 1]!);
      continue;
    }
    const word = run.replace(/['’_-]+$/u, '');
    if (word.length === 0 || isStopword(word)) continue;
    tokens.push(stem(word));
  }
  return tokens;
}

/** The distinct tokens of a text. */
export function tokenSet(text: string): Set<string> {
  return new Set(tokenize(text));
}

/**
 * A very light English stemmer (plural and common verb endings), enough that "posters" meets
 * "poster" and "colouring" meets "colour"; words under five letters are left alone.
 */
function stem(word: string): string {
  if (word.length < 5 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 6) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 5) return word.slice(0, -2);
  if (word.endsWith('es') && /(sh|ch|x|s)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Share of the query's tokens found in the other text's tokens, 0..1 (0 for an empty query). */
export function overlap(query: ReadonlySet<string>, other: ReadonlySet<string>): number {
  if (query.size === 0) return 0;
  let hits = 0;
  for (const token of query) if (other.has(token)) hits += 1;
  return hits / query.size;
}
