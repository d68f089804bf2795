/**
 * Okapi BM25 as the app-scored adapters compute it (in-memory, MongoDB); SQLite FTS5's bm25()
 * uses the same k1, b and idf shape (DESIGN.md §4 step 2 asks for BM25 on the embedded store).
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Rarer terms weigh more; never negative, so a term in most documents still counts a little. */
export function idf(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

export function termScore(idfValue: number, tf: number, length: number, averageLength: number): number {
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / (averageLength || 1));
  return (idfValue * tf * (BM25_K1 + 1)) / (tf + norm);
}

/** Term frequencies of a token list. */
export function termFrequencies(tokens: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}
