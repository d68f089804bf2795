import { topK } from '../vectors/top-k';
import type { SearchHit } from '../search-index.port';

/** A query term with the weight the ranking gives it (the caller's BM25 idf). */
export interface WeightedTerm {
  term: string;
  idf: number;
}

/**
 * The BM25 parameters of the caller's formula: a term's part is
 * idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · (length + lengthOffset) / average)), where length
 * is the document's token count here and `lengthOffset` what the caller's store counts besides
 * (FTS5 counts the scope column's token).
 */
export interface Bm25Shape {
  k1: number;
  b: number;
  average: number;
  lengthOffset: number;
}

interface Postings {
  slots: Int32Array;
  tfs: Uint16Array;
  size: number;
}

const MAX_TF = 0xffff;

/**
 * The inverted index of one scope in memory: for each term the rows (slots) that hold it with its
 * frequency, in typed arrays, so a query accumulates its scores term by term over the postings of
 * its own terms only (~2–4 ns a posting) instead of reading rows. A replaced or removed document
 * leaves its slot dead; dead postings are skipped and dropped by `compact` once they are a quarter
 * of all rows.
 */
export class TermPostings {
  private readonly postings = new Map<string, Postings>();
  private readonly slotOf = new Map<string, number>();
  private ids: string[] = [];
  private lengths = new Uint32Array(64);
  private alive = new Uint8Array(64);
  private dead = 0;
  private scores = new Float64Array(64);
  private touched = new Int32Array(64);

  get size(): number {
    return this.slotOf.size;
  }

  /** Adds or replaces a document by its tokens (as the index tokenised them). */
  set(id: string, tokens: readonly string[]): void {
    this.delete(id);
    const slot = this.ids.length;
    this.ensureSlots(slot + 1);
    this.ids.push(id);
    this.slotOf.set(id, slot);
    this.lengths[slot] = tokens.length;
    this.alive[slot] = 1;
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) {
        list = { slots: new Int32Array(4), tfs: new Uint16Array(4), size: 0 };
        this.postings.set(term, list);
      }
      if (list.size === list.slots.length) grow(list);
      list.slots[list.size] = slot;
      list.tfs[list.size] = Math.min(tf, MAX_TF);
      list.size += 1;
    }
  }

  delete(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.alive[slot] = 0;
    this.dead += 1;
    if (this.dead > 1024 && this.dead * 4 > this.ids.length) this.compact();
  }

  /**
   * The best `limit` documents by their BM25 score over the terms they hold, exact (every posting
   * of every term is scored), ties by id. Excluded ids never enter the result.
   */
  search(terms: readonly WeightedTerm[], bm25: Bm25Shape, limit: number, exclude: ReadonlySet<string>): SearchHit[] {
    const slots = this.ids.length;
    if (this.scores.length < slots) this.scores = new Float64Array(this.lengths.length);
    if (this.touched.length < slots) this.touched = new Int32Array(this.lengths.length);
    const acc = this.scores;
    const touched = this.touched;
    const alive = this.alive;
    const lengths = this.lengths;
    // norm(len) = k1 · (1 − b + b · (len + lengthOffset) / average), per posting: a multiply-add.
    const base = bm25.k1 * (1 - bm25.b + (bm25.b * bm25.lengthOffset) / bm25.average);
    const perToken = (bm25.k1 * bm25.b) / bm25.average;
    const k1Plus1 = bm25.k1 + 1;
    const accept = (slot: number) => !exclude.has(this.ids[slot]!);

    // MaxScore (Turtle & Flood): terms by their bound, highest first. Once the k-th best score so
    // far beats what all the remaining terms together could add, a document none of the scanned
    // terms touched cannot enter the result: the remaining (most common, longest) lists are not
    // scanned, only looked up for the documents that can still make it.
    const ordered = terms
      .map((t) => ({ ...t, list: this.postings.get(t.term) }))
      .filter((t): t is WeightedTerm & { list: Postings } => t.list !== undefined)
      .sort((x, y) => y.idf - x.idf || y.list.size - x.list.size);
    const rest = new Float64Array(ordered.length + 1);
    for (let i = ordered.length - 1; i >= 0; i -= 1) rest[i] = rest[i + 1]! + ordered[i]!.idf * k1Plus1;
    let count = 0;
    let scanned = 0;
    let best = 0;
    let threshold = 0;
    for (; scanned < ordered.length; scanned += 1) {
      if (scanned > 0 && rest[scanned]! < best) {
        threshold = this.kthBest(count, limit, accept);
        if (rest[scanned]! < threshold) break;
      }
      const { list, idf } = ordered[scanned]!;
      const { slots: rows, tfs, size } = list;
      const weight = idf * k1Plus1;
      for (let i = 0; i < size; i += 1) {
        const slot = rows[i]!;
        if (alive[slot] === 0) continue;
        const tf = tfs[i]!;
        const before = acc[slot]!;
        if (before === 0) touched[count++] = slot;
        const after = before + (weight * tf) / (tf + base + perToken * lengths[slot]!);
        acc[slot] = after;
        if (after > best) best = after;
      }
    }
    // The documents that can still reach the threshold get the unscanned terms by lookup.
    const remaining = rest[scanned]!;
    const kept: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const slot = touched[i]!;
      if (acc[slot]! + remaining >= threshold) kept.push(slot);
    }
    const candidateScores = new Float64Array(kept.length);
    kept.forEach((slot, k) => {
      let score = acc[slot]!;
      for (let t = scanned; t < ordered.length; t += 1) {
        const { list, idf } = ordered[t]!;
        const tf = frequencyIn(list, slot);
        if (tf > 0) score += (idf * k1Plus1 * tf) / (tf + base + perToken * lengths[slot]!);
      }
      candidateScores[k] = score;
    });
    for (let i = 0; i < count; i += 1) acc[touched[i]!] = 0;
    // Ties at the heap's edge must still resolve by id: take a few more than asked, then sort.
    const top = topK(candidateScores, kept.length, limit + 8, (i) => accept(kept[i]!));
    return top
      .map((b) => ({ id: this.ids[kept[b.index]!]!, score: b.score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit);
  }

  /** The `limit`-th best accumulated score among accepted touched documents (0 if fewer). */
  private kthBest(count: number, limit: number, accept: (slot: number) => boolean): number {
    const scores = new Float64Array(count);
    for (let i = 0; i < count; i += 1) scores[i] = this.scores[this.touched[i]!]!;
    const top = topK(scores, count, limit, (i) => accept(this.touched[i]!));
    return top.length < limit ? 0 : top[top.length - 1]!.score;
  }

  /** Drops dead slots: live ones are renumbered and every posting list is rewritten. */
  private compact(): void {
    const renumber = new Int32Array(this.ids.length).fill(-1);
    const ids: string[] = [];
    const lengths = new Uint32Array(Math.max(64, this.slotOf.size * 2));
    for (let slot = 0; slot < this.ids.length; slot += 1) {
      if (this.alive[slot] === 0) continue;
      renumber[slot] = ids.length;
      lengths[ids.length] = this.lengths[slot]!;
      ids.push(this.ids[slot]!);
    }
    for (const [term, list] of this.postings) {
      let kept = 0;
      for (let i = 0; i < list.size; i += 1) {
        const to = renumber[list.slots[i]!]!;
        if (to < 0) continue;
        list.slots[kept] = to;
        list.tfs[kept] = list.tfs[i]!;
        kept += 1;
      }
      if (kept === 0) this.postings.delete(term);
      else list.size = kept;
    }
    this.ids = ids;
    this.lengths = lengths;
    this.alive = new Uint8Array(lengths.length).fill(1, 0, ids.length);
    this.slotOf.clear();
    ids.forEach((id, slot) => this.slotOf.set(id, slot));
    this.dead = 0;
    this.scores = new Float64Array(lengths.length);
  }

  private ensureSlots(needed: number): void {
    if (needed <= this.lengths.length) return;
    const capacity = Math.max(needed, this.lengths.length * 2);
    const lengths = new Uint32Array(capacity);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const alive = new Uint8Array(capacity);
    alive.set(this.alive);
    this.alive = alive;
  }
}

function grow(list: Postings): void {
  const slots = new Int32Array(list.slots.length * 2);
  slots.set(list.slots);
  const tfs = new Uint16Array(list.tfs.length * 2);
  tfs.set(list.tfs);
  list.slots = slots;
  list.tfs = tfs;
}

/** The term frequency at `slot`, by binary search: a list's slots are ascending (appended so, kept so by compact). */
function frequencyIn(list: Postings, slot: number): number {
  let lo = 0;
  let hi = list.size - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = list.slots[mid]!;
    if (at === slot) return list.tfs[mid]!;
    if (at < slot) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}
