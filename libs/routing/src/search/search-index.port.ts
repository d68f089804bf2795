export const SEARCH_INDEX = Symbol('SEARCH_INDEX');

/**
 * One searchable document: a task's routing text (goal + summary) and its summary vector, scoped
 * to a workspace. `id` is unique within the scope; an upsert replaces the document.
 */
export interface SearchDocument {
  scope: string;
  id: string;
  text: string;
  /** From the configured EmbeddingProvider; absent when none was computed. Compared by cosine. */
  vector?: Float32Array;
}

export interface SearchHit {
  id: string;
  /** Higher is better; comparable only within one result list (BM25 for text, cosine for vectors). */
  score: number;
}

export interface SearchOptions {
  limit: number;
  /** Ids to leave out (e.g. the recent tasks already in the prompt). */
  exclude?: ReadonlySet<string>;
}

/**
 * Keyword and vector retrieval over routing documents (DESIGN.md §4 step 2). Text is segmented
 * by the shared tokenizer (words; Han text as character bigrams), so English and Chinese are
 * searched alike on every adapter. Traditional and Simplified characters are different tokens
 * (no conversion): 報 does not find 报. Adapters translate vendor errors into SearchIndexError
 * and refuse bad input (empty scope or id, a vector not of the index's dimensions, a limit
 * outside 1..1000) with SEARCH_INVALID_INPUT before changing anything.
 */
export interface SearchIndex {
  upsert(documents: readonly SearchDocument[]): Promise<void>;
  remove(scope: string, ids: readonly string[]): Promise<void>;
  searchText(scope: string, query: string, options: SearchOptions): Promise<SearchHit[]>;
  searchVector(scope: string, vector: Float32Array, options: SearchOptions): Promise<SearchHit[]>;
  /** Drops every document of every scope (a rebuild starts from nothing). */
  clear(): Promise<void>;
}
