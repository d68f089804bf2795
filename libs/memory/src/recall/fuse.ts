import type { SearchHit } from '@lomo/routing';

/** Reciprocal rank fusion's damping constant: 60 is the value of Cormack et al. (2009). */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of the keyword and vector lists: BM25 and cosine are on different
 * scales, ranks are not, so a document high in either list rises without calibrating one score
 * against the other. Only `admitted` ids are fused (the rest failed a filter or the floor).
 * Ties keep the vector order (the list that carries meaning beyond shared words).
 */
export function fuseRanks(
  vectorHits: readonly SearchHit[],
  textHits: readonly SearchHit[],
  admitted: ReadonlySet<string>,
  k = RRF_K,
): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  const add = (hits: readonly SearchHit[]) => {
    let rank = 0;
    for (const hit of hits) {
      if (!admitted.has(hit.id)) continue;
      rank += 1;
      scores.set(hit.id, (scores.get(hit.id) ?? 0) + 1 / (k + rank));
    }
  };
  add(vectorHits);
  add(textHits);
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
