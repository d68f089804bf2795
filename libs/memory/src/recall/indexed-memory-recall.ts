import type { BlobStore } from '@lomo/blobs';
import type { Clock } from '@lomo/contracts';
import type { EmbeddingProvider } from '@lomo/llm';
import { MAX_SEARCH_LIMIT, type SearchHit, type SearchIndex } from '@lomo/routing';
import type { MemoryRecall, RecalledMemory, RecallQuery } from '@lomo/runtime';
import { isEligible, type EligibilityQuery } from './eligibility';
import { fuseRanks, RRF_K } from './fuse';
import type { MemoryIndexCatalog } from './memory-index-catalog';
import { personScope, type MemoryIndexEntry } from './memory-index-document';
import { raceAbort, throwIfRecallAborted } from './recall-errors';

export interface IndexedMemoryRecallOptions {
  /**
   * Abstention: a candidate whose cosine with the query is below this is never recalled, however
   * well it ranks, so a query about nothing the person said recalls nothing. 0.3 by default.
   */
  minSimilarity?: number;
  /** The most memories one recall returns, whatever the query asks; 20 by default. */
  maxLimit?: number;
  /** Candidates fetched from each list before filtering: max(this, 10 × limit); 50 by default. */
  candidates?: number;
  /**
   * Whether episode summaries of the person's other tasks may be recalled. Off by default: a
   * summary may retell that task's local requirements, which must not leak into another task.
   */
  summariesAcrossTasks?: boolean;
  rrfK?: number;
}

export interface IndexedMemoryRecallDeps {
  index: SearchIndex;
  embedder: EmbeddingProvider;
  blobs: BlobStore;
  catalog: MemoryIndexCatalog;
  clock: Clock;
  options?: IndexedMemoryRecallOptions;
}

interface Candidate {
  entry: MemoryIndexEntry;
  score: number;
}

/**
 * Recall over the MemoryIndexer's documents (issue 18 item 4): keyword (BM25) and vector (cosine)
 * lists from the person's own index scope, filtered by task scope and validity through the
 * catalog, cut at a cosine floor (abstention), fused by reciprocal rank, one version per memory,
 * and the text read from the BlobStore (a purged blob is skipped, never returned).
 */
export class IndexedMemoryRecall implements MemoryRecall {
  private readonly minSimilarity: number;
  private readonly maxLimit: number;
  private readonly candidates: number;
  private readonly summariesAcrossTasks: boolean;
  private readonly rrfK: number;

  constructor(private readonly deps: IndexedMemoryRecallDeps) {
    const o = deps.options ?? {};
    this.minSimilarity = (o.minSimilarity ?? 0.3) * (deps.embedder.querySimilarityScale ?? 1);
    this.maxLimit = o.maxLimit ?? 20;
    this.candidates = o.candidates ?? 50;
    this.summariesAcrossTasks = o.summariesAcrossTasks ?? false;
    this.rrfK = o.rrfK ?? RRF_K;
  }

  async recall(query: RecallQuery): Promise<RecalledMemory[]> {
    const { signal } = query;
    throwIfRecallAborted(signal, 'start');
    const limit = Math.max(0, Math.min(Math.floor(query.limit), this.maxLimit));
    const scope = personScope(query);
    if (limit === 0 || this.deps.catalog.size(scope) === 0 || query.text.trim() === '') return [];
    const eligibility: EligibilityQuery = {
      taskId: query.taskId,
      at: query.at === undefined ? undefined : Date.parse(query.at),
      now: this.deps.clock.now().getTime(),
      summariesAcrossTasks: this.summariesAcrossTasks,
    };
    const embedder = this.deps.embedder;
    const asked = { texts: [query.text], signal };
    const [vector] = await raceAbort(
      embedder.embedQuery ? embedder.embedQuery(asked) : embedder.embed(asked),
      signal,
      'embed',
    );
    const ranked = await this.rank(scope, query.text, vector!, eligibility, limit, signal);
    return this.read(ranked, limit, signal);
  }

  /**
   * Fetches both lists, widening the fetch while filters leave fewer than needed and a list was
   * cut short (many ineligible documents, e.g. other tasks' memories, crowding the top).
   */
  private async rank(
    scope: string,
    text: string,
    vector: Float32Array,
    eligibility: EligibilityQuery,
    limit: number,
    signal: AbortSignal | undefined,
  ): Promise<Candidate[]> {
    let fetch = Math.min(MAX_SEARCH_LIMIT, Math.max(this.candidates, limit * 10));
    for (;;) {
      const [vectorHits, textHits] = await raceAbort(
        Promise.all([
          this.deps.index.searchVector(scope, vector, { limit: fetch }),
          this.deps.index.searchText(scope, text, { limit: fetch }),
        ]),
        signal,
        'search',
      );
      const admitted = this.admit(scope, vectorHits, eligibility);
      const fused = fuseRanks(vectorHits, textHits, new Set(admitted.keys()), this.rrfK);
      const candidates = onePerMemory(fused.map((f) => ({ entry: admitted.get(f.id)!, score: f.score })));
      const cutShort = vectorHits.length === fetch && vectorHits[fetch - 1]!.score >= this.minSimilarity;
      // A bit more than `limit`, since a candidate whose blob is gone is skipped when read.
      if (candidates.length >= limit * 2 || !cutShort || fetch >= MAX_SEARCH_LIMIT) return candidates;
      fetch = Math.min(MAX_SEARCH_LIMIT, fetch * 4);
    }
  }

  /**
   * The floor is on the cosine only: BM25 is unbounded and corpus-dependent, so it ranks but
   * never admits. A keyword match worth recalling also moves the vector (the embedders hash the
   * same tokens), and a document outside the vector list's top could not reach the top `limit`.
   */
  private admit(scope: string, vectorHits: readonly SearchHit[], eligibility: EligibilityQuery) {
    const admitted = new Map<string, MemoryIndexEntry>();
    for (const hit of vectorHits) {
      if (hit.score < this.minSimilarity) break;
      const entry = this.deps.catalog.get(scope, hit.id);
      if (entry && isEligible(entry, eligibility)) admitted.set(hit.id, entry);
    }
    return admitted;
  }

  private async read(ranked: readonly Candidate[], limit: number, signal: AbortSignal | undefined) {
    const recalled: RecalledMemory[] = [];
    for (let i = 0; i < ranked.length && recalled.length < limit;) {
      const page = ranked.slice(i, i + limit - recalled.length);
      i += page.length;
      const bodies = await raceAbort(
        Promise.all(page.map((c) => this.deps.blobs.get(c.entry.blobHash))),
        signal,
        'read',
      );
      page.forEach((c, j) => {
        const body = bodies[j];
        if (body !== undefined) recalled.push(toRecalled(c, body.toString('utf8')));
      });
    }
    return recalled;
  }
}

/** A chain answers once: its best-ranked eligible version (the temporal filter already keeps one). */
function onePerMemory(candidates: readonly Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const c of candidates) {
    const held = best.get(c.entry.memoryId);
    if (!held || (held.entry.status !== 'current' && c.entry.status === 'current')) best.set(c.entry.memoryId, c);
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

function toRecalled(c: Candidate, text: string): RecalledMemory {
  const e = c.entry;
  return {
    memoryId: e.memoryId,
    versionId: e.versionId,
    subject: e.subject,
    text,
    origin: e.origin,
    scope: e.scope,
    validFrom: new Date(e.validFrom).toISOString(),
    validTo: e.validTo === null ? null : new Date(e.validTo).toISOString(),
    score: c.score,
  };
}
