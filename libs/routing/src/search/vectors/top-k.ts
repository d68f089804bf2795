/**
 * The best `k` of a stream of (score, index) pairs, kept in a bounded min-heap: O(n log k), no
 * allocation per candidate. `offer` answers in one comparison for the bulk of a scan (a score no
 * better than the k-th kept), so one heap can take the rows of several matrices in turn.
 */
export class BoundedTopK {
  private readonly heapScore: Float64Array;
  private readonly heapIndex: Float64Array;
  private size = 0;

  constructor(readonly k: number) {
    this.heapScore = new Float64Array(k);
    this.heapIndex = new Float64Array(k);
  }

  /** Whether `score` would enter the heap now (ask before a costly `accept`). */
  wants(score: number): boolean {
    return this.k > 0 && (this.size < this.k || score > this.heapScore[0]!);
  }

  /** Offers every score of a block whose `accept(i)` holds, as index `base + i`. */
  offerAll(scores: ArrayLike<number>, count: number, base: number, accept: (index: number) => boolean): void {
    for (let i = 0; i < count; i += 1) {
      const score = scores[i]!;
      if (!this.wants(score) || !accept(i)) continue;
      this.offer(score, base + i);
    }
  }

  offer(score: number, index: number): void {
    const { heapScore, heapIndex } = this;
    if (!this.wants(score)) return;
    if (this.size < this.k) {
      // sift up
      let at = this.size;
      this.size += 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (heapScore[parent]! <= score) break;
        heapScore[at] = heapScore[parent]!;
        heapIndex[at] = heapIndex[parent]!;
        at = parent;
      }
      heapScore[at] = score;
      heapIndex[at] = index;
      return;
    }
    // replace the root, sift down
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && heapScore[right]! < heapScore[left]! ? right : left;
      if (heapScore[child]! >= score) break;
      heapScore[at] = heapScore[child]!;
      heapIndex[at] = heapIndex[child]!;
      at = child;
    }
    heapScore[at] = score;
    heapIndex[at] = index;
  }

  /** The kept pairs, best first; ties by index. */
  sorted(): Array<{ index: number; score: number }> {
    const out: Array<{ index: number; score: number }> = [];
    for (let i = 0; i < this.size; i += 1) out.push({ index: this.heapIndex[i]!, score: this.heapScore[i]! });
    return out.sort((a, b) => b.score - a.score || a.index - b.index);
  }
}

/**
 * The best `k` of `count` scores, best first; `accept` is asked only for a candidate that would
 * enter the heap, so an exclusion check costs nothing for the bulk of rows.
 */
export function topK(
  scores: ArrayLike<number>,
  count: number,
  k: number,
  accept: (index: number) => boolean,
): Array<{ index: number; score: number }> {
  const heap = new BoundedTopK(k);
  heap.offerAll(scores, count, 0, accept);
  return heap.sorted();
}
