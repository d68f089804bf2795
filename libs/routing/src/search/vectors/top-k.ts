/**
 * The best `k` of a stream of (score, index) pairs, kept in a bounded min-heap: O(n log k), no
 * allocation per candidate. `accept` is asked only for a candidate that would enter the heap, so
 * an exclusion check costs nothing for the bulk of rows.
 */
export function topK(
  scores: ArrayLike<number>,
  count: number,
  k: number,
  accept: (index: number) => boolean,
): Array<{ index: number; score: number }> {
  const heapScore = new Float64Array(k);
  const heapIndex = new Int32Array(k);
  let size = 0;
  for (let i = 0; i < count; i += 1) {
    const score = scores[i]!;
    if (size === k && score <= heapScore[0]!) continue;
    if (!accept(i)) continue;
    if (size < k) {
      // sift up
      let at = size;
      size += 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (heapScore[parent]! <= score) break;
        heapScore[at] = heapScore[parent]!;
        heapIndex[at] = heapIndex[parent]!;
        at = parent;
      }
      heapScore[at] = score;
      heapIndex[at] = i;
      continue;
    }
    // replace the root, sift down
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && heapScore[right]! < heapScore[left]! ? right : left;
      if (heapScore[child]! >= score) break;
      heapScore[at] = heapScore[child]!;
      heapIndex[at] = heapIndex[child]!;
      at = child;
    }
    heapScore[at] = score;
    heapIndex[at] = i;
  }
  const out: Array<{ index: number; score: number }> = [];
  for (let i = 0; i < size; i += 1) out.push({ index: heapIndex[i]!, score: heapScore[i]! });
  return out.sort((a, b) => b.score - a.score || a.index - b.index);
}
