import { tokenize } from '@lomo/text';
import type { SearchDocument, SearchHit, SearchIndex, SearchOptions } from '../search/search-index.port';

interface Entry {
  doc: SearchDocument;
  tokens: Set<string>;
}

/**
 * A minimal SearchIndex for this lib's tests and the router bench until the real adapters land:
 * an inverted index per scope, text scored by the number of distinct query tokens a document
 * holds (a stand-in for BM25), vectors by dot product over the scope (a full scan).
 */
export class MinimalSearchIndex implements SearchIndex {
  private readonly scopes = new Map<string, { entries: Map<string, Entry>; postings: Map<string, Set<string>> }>();

  async upsert(documents: readonly SearchDocument[]): Promise<void> {
    for (const doc of documents) {
      this.drop(doc.scope, doc.id);
      const scope = this.scope(doc.scope);
      const tokens = new Set(tokenize(doc.text));
      scope.entries.set(doc.id, { doc, tokens });
      for (const t of tokens) {
        let ids = scope.postings.get(t);
        if (!ids) scope.postings.set(t, (ids = new Set()));
        ids.add(doc.id);
      }
    }
  }

  async remove(scope: string, ids: readonly string[]): Promise<void> {
    for (const id of ids) this.drop(scope, id);
  }

  async searchText(scope: string, query: string, options: SearchOptions): Promise<SearchHit[]> {
    const s = this.scopes.get(scope);
    if (!s) return [];
    const scores = new Map<string, number>();
    for (const t of new Set(tokenize(query))) {
      for (const id of s.postings.get(t) ?? []) {
        if (!options.exclude?.has(id)) scores.set(id, (scores.get(id) ?? 0) + 1);
      }
    }
    return top(
      [...scores].map(([id, score]) => ({ id, score })),
      options.limit,
    );
  }

  async searchVector(scope: string, vector: Float32Array, options: SearchOptions): Promise<SearchHit[]> {
    const s = this.scopes.get(scope);
    if (!s) return [];
    const hits: SearchHit[] = [];
    for (const { doc } of s.entries.values()) {
      if (!doc.vector || options.exclude?.has(doc.id)) continue;
      let dot = 0;
      for (let i = 0; i < vector.length; i += 1) dot += vector[i]! * (doc.vector[i] ?? 0);
      if (dot > 0) hits.push({ id: doc.id, score: dot });
    }
    return top(hits, options.limit);
  }

  async clear(): Promise<void> {
    this.scopes.clear();
  }

  private scope(name: string) {
    let s = this.scopes.get(name);
    if (!s) this.scopes.set(name, (s = { entries: new Map(), postings: new Map() }));
    return s;
  }

  private drop(scope: string, id: string) {
    const s = this.scopes.get(scope);
    const entry = s?.entries.get(id);
    if (!s || !entry) return;
    for (const t of entry.tokens) s.postings.get(t)?.delete(id);
    s.entries.delete(id);
  }
}

const top = (hits: SearchHit[], limit: number) => hits.sort((a, b) => b.score - a.score).slice(0, limit);
