import { tokenize } from '@lomo/text';
import type { SearchDocument, SearchHit, SearchIndex, SearchOptions } from '../search/search-index.port';

/**
 * A minimal SearchIndex for this lib's tests until the real adapters land: text scored by the
 * number of query tokens a document holds (a stand-in for BM25), vectors by dot product.
 */
export class MinimalSearchIndex implements SearchIndex {
  private readonly docs = new Map<string, { doc: SearchDocument; tokens: Set<string> }>();

  async upsert(documents: readonly SearchDocument[]): Promise<void> {
    for (const doc of documents) this.docs.set(key(doc.scope, doc.id), { doc, tokens: new Set(tokenize(doc.text)) });
  }

  async remove(scope: string, ids: readonly string[]): Promise<void> {
    for (const id of ids) this.docs.delete(key(scope, id));
  }

  async searchText(scope: string, query: string, options: SearchOptions): Promise<SearchHit[]> {
    const terms = new Set(tokenize(query));
    return this.rank(scope, options, ({ tokens }) => [...terms].filter((t) => tokens.has(t)).length);
  }

  async searchVector(scope: string, vector: Float32Array, options: SearchOptions): Promise<SearchHit[]> {
    return this.rank(scope, options, ({ doc }) => {
      if (!doc.vector) return 0;
      let dot = 0;
      for (let i = 0; i < vector.length; i += 1) dot += vector[i]! * (doc.vector[i] ?? 0);
      return dot;
    });
  }

  async clear(): Promise<void> {
    this.docs.clear();
  }

  private rank(
    scope: string,
    options: SearchOptions,
    score: (entry: { doc: SearchDocument; tokens: Set<string> }) => number,
  ): SearchHit[] {
    const hits: SearchHit[] = [];
    for (const entry of this.docs.values()) {
      if (entry.doc.scope !== scope || options.exclude?.has(entry.doc.id)) continue;
      const s = score(entry);
      if (s > 0) hits.push({ id: entry.doc.id, score: s });
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, options.limit);
  }
}

const key = (scope: string, id: string) => `${scope}\u0000${id}`;
