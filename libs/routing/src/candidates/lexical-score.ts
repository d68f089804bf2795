import { overlap, tokenSet } from '@lomo/text';

/**
 * The score the router's margin guard compares: the share of the message's distinct tokens
 * (`@lomo/text`: words without stopwords, Han runs as character bigrams) that occur in the
 * candidate's goal + summary, 0..1. It is the same for every source, so a recent task and a
 * retrieved one are compared on one scale (a search engine's BM25 or cosine is not).
 */
export function lexicalScore(messageTokens: ReadonlySet<string>, candidateText: string): number {
  return overlap(messageTokens, tokenSet(candidateText));
}

/** Cosine of two L2-normalised vectors, clamped to 0..1 (a negative similarity is no evidence). */
export function cosine(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  for (let i = 0; i < n; i += 1) dot += a[i]! * b[i]!;
  return Math.max(0, Math.min(1, dot));
}
