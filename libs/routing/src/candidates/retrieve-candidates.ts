import type { EmbeddingProvider } from '@lomo/llm';
import { tokenSet } from '@lomo/text';
import type { SearchHit, SearchIndex } from '../search/search-index.port';
import type { RoutingIndex } from '../index/routing-index.port';
import { isRoutable, routingText, type RoutingDocument } from '../index/routing-document';
import type { RoutingCandidate } from './candidate';
import { lexicalScore } from './lexical-score';

export const DEFAULT_RECENT = 20;
export const DEFAULT_RETRIEVED = 5;
/** Reciprocal rank fusion constant (Cormack et al.): damps the weight of the very first ranks. */
const RRF_K = 60;

export interface CandidateSources {
  index: RoutingIndex;
  search: SearchIndex;
  embedder: EmbeddingProvider;
}

export interface RetrieveCandidatesInput {
  workspaceId: string;
  text: string;
  /** N: the most recently active routable tasks, always in the prompt. */
  recent?: number;
  /** K: older work retrieved by keywords and summary vector, beyond the recent ones. */
  retrieved?: number;
  /**
   * Tasks the main line routed to moments ago, with the document the caller knows for each: they
   * are always candidates (`recent_decision`) even while the index projection has not seen them,
   * which is what makes a follow-up 100 ms after creation find its task.
   */
  alsoInclude?: readonly RoutingDocument[];
}

/**
 * The bounded candidate set of one routing decision: at most N + K + |alsoInclude| tasks, whatever
 * the number of tasks in the workspace. Retrieval fuses the keyword and vector rankings by
 * reciprocal rank and leaves out the recent ones (they are in the prompt anyway).
 */
export async function retrieveCandidates(
  sources: CandidateSources,
  input: RetrieveCandidatesInput,
): Promise<RoutingCandidate[]> {
  const recentLimit = input.recent ?? DEFAULT_RECENT;
  const retrievedLimit = input.retrieved ?? DEFAULT_RETRIEVED;
  const forced = input.alsoInclude ?? [];
  const forcedIds = new Set(forced.map((d) => d.taskId));

  const recent = (await sources.index.recent(input.workspaceId, recentLimit)).filter(isRoutable);
  const exclude = new Set([...recent.map((d) => d.taskId), ...forcedIds]);
  const retrieved = retrievedLimit > 0 ? await retrieve(sources, input, exclude, retrievedLimit) : [];

  const known = new Map([...recent, ...retrieved].map((d) => [d.taskId, d]));
  const messageTokens = tokenSet(input.text);
  const candidate = (document: RoutingDocument, source: RoutingCandidate['source']): RoutingCandidate => ({
    taskId: document.taskId,
    document,
    score: lexicalScore(messageTokens, routingText(document)),
    source,
  });
  return [
    // The index's document is fresher when it has caught up; the caller's stands in until then.
    ...forced.map((d) => candidate(known.get(d.taskId) ?? d, 'recent_decision')),
    ...recent.filter((d) => !forcedIds.has(d.taskId)).map((d) => candidate(d, 'recent')),
    ...retrieved.filter((d) => !forcedIds.has(d.taskId)).map((d) => candidate(d, 'retrieval')),
  ];
}

async function retrieve(
  sources: CandidateSources,
  input: RetrieveCandidatesInput,
  exclude: ReadonlySet<string>,
  limit: number,
): Promise<RoutingDocument[]> {
  const options = { limit: limit * 2, exclude };
  const [vector] = await sources.embedder.embed({ texts: [input.text] });
  const [byText, byVector] = await Promise.all([
    sources.search.searchText(input.workspaceId, input.text, options),
    vector ? sources.search.searchVector(input.workspaceId, vector, options) : Promise.resolve([]),
  ]);
  // A cosine of 0 or less shares nothing with the message: nearest, but not near.
  const ids = fuse([byText, byVector.filter((hit) => hit.score > 0)]).slice(0, limit * 2);
  // The search index may still hold a task archived moments ago: the read model has the last word.
  const documents = (await sources.index.get(input.workspaceId, ids)).filter(isRoutable);
  return documents.slice(0, limit);
}

/** Reciprocal rank fusion: sum of 1 / (RRF_K + rank) over the lists; ties keep first-seen order. */
export function fuse(lists: readonly (readonly SearchHit[])[]): string[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.forEach((hit, rank) => scores.set(hit.id, (scores.get(hit.id) ?? 0) + 1 / (RRF_K + rank + 1)));
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
