import { tokenize } from '@lomo/text';
import { idf, termFrequencies, termScore } from '../search/bm25';
import type { SearchDocument, SearchHit, SearchIndex, SearchOptions } from '../search/search-index.port';
import {
  assertDimensions,
  assertDocuments,
  assertOptions,
  assertScope,
  assertVector,
  assertIds,
  lastPerKey,
} from '../search/search-input';
import { VectorMatrix } from '../search/vectors/vector-matrix';
import { topK } from '../search/vectors/top-k';

interface ScopeIndex {
  lengths: Map<string, number>;
  totalLength: number;
  postings: Map<string, Map<string, number>>;
  tokens: Map<string, Map<string, number>>;
  vectors: VectorMatrix;
}

export interface InMemorySearchIndexOptions {
  dimensions: number;
}

/** SearchIndex for tests: an inverted index scored by BM25 and the same exact vector scan. */
export class InMemorySearchIndex implements SearchIndex {
  private readonly scopes = new Map<string, ScopeIndex>();
  private readonly dimensions: number;

  constructor(options: InMemorySearchIndexOptions) {
    assertDimensions(options.dimensions);
    this.dimensions = options.dimensions;
  }

  async upsert(documents: readonly SearchDocument[]): Promise<void> {
    assertDocuments(documents, this.dimensions);
    for (const d of lastPerKey(documents)) {
      const s = this.scope(d.scope);
      this.drop(s, d.id);
      const tokens = tokenize(d.text);
      const tf = termFrequencies(tokens);
      s.tokens.set(d.id, tf);
      s.lengths.set(d.id, tokens.length);
      s.totalLength += tokens.length;
      for (const [t, n] of tf) {
        let posting = s.postings.get(t);
        if (!posting) s.postings.set(t, (posting = new Map()));
        posting.set(d.id, n);
      }
      if (d.vector) s.vectors.set(d.id, d.vector);
    }
  }

  async remove(scope: string, ids: readonly string[]): Promise<void> {
    assertScope(scope);
    assertIds(ids);
    const s = this.scopes.get(scope);
    if (s) for (const id of ids) this.drop(s, id);
  }

  async searchText(scope: string, query: string, options: SearchOptions): Promise<SearchHit[]> {
    assertScope(scope);
    assertOptions(options);
    const s = this.scopes.get(scope);
    const terms = [...new Set(tokenize(String(query)))];
    if (!s || terms.length === 0 || s.lengths.size === 0) return [];
    const n = s.lengths.size;
    const average = s.totalLength / n;
    const scores = new Map<string, number>();
    for (const t of terms) {
      const posting = s.postings.get(t);
      if (!posting) continue;
      const weight = idf(n, posting.size);
      for (const [id, tf] of posting) {
        scores.set(id, (scores.get(id) ?? 0) + termScore(weight, tf, s.lengths.get(id)!, average));
      }
    }
    const ids = [...scores.keys()].sort();
    const values = ids.map((id) => scores.get(id)!);
    const exclude = options.exclude;
    return topK(values, ids.length, options.limit, (i) => !exclude?.has(ids[i]!)).map((h) => ({
      id: ids[h.index]!,
      score: h.score,
    }));
  }

  async searchVector(scope: string, vector: Float32Array, options: SearchOptions): Promise<SearchHit[]> {
    assertScope(scope);
    assertVector(vector, this.dimensions);
    assertOptions(options);
    return this.scopes.get(scope)?.vectors.search(vector, options.limit, options.exclude) ?? [];
  }

  async clear(): Promise<void> {
    this.scopes.clear();
  }

  private scope(name: string): ScopeIndex {
    let s = this.scopes.get(name);
    if (!s) {
      s = {
        lengths: new Map(),
        totalLength: 0,
        postings: new Map(),
        tokens: new Map(),
        vectors: new VectorMatrix(this.dimensions),
      };
      this.scopes.set(name, s);
    }
    return s;
  }

  private drop(s: ScopeIndex, id: string): void {
    const tf = s.tokens.get(id);
    if (tf) {
      for (const t of tf.keys()) {
        const posting = s.postings.get(t)!;
        posting.delete(id);
        if (posting.size === 0) s.postings.delete(t);
      }
      s.totalLength -= s.lengths.get(id)!;
      s.lengths.delete(id);
      s.tokens.delete(id);
    }
    s.vectors.delete(id);
  }
}
