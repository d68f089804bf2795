/**
 * SQLite FTS5's bm25() reproduced in the app (sqlite/ext/fts5/fts5_aux.c, fts5Bm25Function),
 * so candidates found through the index can be scored exactly as bm25() would score them:
 * k1 = 1.2, b = 0.75, idf = ln((N - df + 0.5) / (df + 0.5)) raised to 1e-6 when not positive,
 * N and the row length counting every column (the scope column holds one token per row), and
 * the scope column weighted 0. Scores are positive here (bm25() returns them negated).
 */
export const FTS5_K1 = 1.2;
export const FTS5_B = 0.75;
const K1 = FTS5_K1;
const B = FTS5_B;

export function fts5Idf(rows: number, documentFrequency: number): number {
  const idf = Math.log((rows - documentFrequency + 0.5) / (documentFrequency + 0.5));
  return idf > 0 ? idf : 1e-6;
}

/** One term's part of the score: `rowTokens` counts all columns of the row. */
export function fts5TermScore(idf: number, tf: number, rowTokens: number, averageRowTokens: number): number {
  return idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * rowTokens) / averageRowTokens)));
}

/** No row gets more than this from one term: tf·(k1+1)/(tf + positive) stays below k1+1. */
export const fts5TermBound = (idf: number) => idf * (K1 + 1);
