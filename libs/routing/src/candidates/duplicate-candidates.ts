import { tokenSet } from '@lomo/text';
import { routingText } from '../index/routing-document';
import type { ScoredDuplicate } from './candidate';
import type { CandidateSources } from './retrieve-candidates';
import { cosine, lexicalScore } from './lexical-score';

export const DEFAULT_DUPLICATE_POOL = 50;
export const DEFAULT_DUPLICATE_TOP = 3;

export interface DuplicateCandidatesInput {
  workspaceId: string;
  goal: string;
  pool?: number;
  top?: number;
}

/**
 * Combined duplicate score, 0..1: the mean of the lexical overlap (share of the new goal's tokens
 * in the task's goal + summary) and the cosine of their embeddings. With a lexical embedder the
 * two largely agree; with a semantic one the cosine catches paraphrases the overlap misses.
 * Without a vector the lexical score stands alone.
 */
export function duplicateScore(lexical: number, vector: number | null): number {
  return vector === null ? lexical : (lexical + vector) / 2;
}

/** The closest few of the `pool` most recently active tasks to a new goal, best first, score > 0. */
export async function duplicateCandidates(
  sources: CandidateSources,
  input: DuplicateCandidatesInput,
): Promise<ScoredDuplicate[]> {
  const pool = await sources.index.recentActive(input.workspaceId, input.pool ?? DEFAULT_DUPLICATE_POOL);
  if (pool.length === 0) return [];
  const texts = pool.map(routingText);
  const vectors = await sources.embedder.embed({ texts: [input.goal, ...texts] });
  const goalVector = vectors[0];
  const goalTokens = tokenSet(input.goal);
  const scored = pool.map((document, i): ScoredDuplicate => {
    const lexical = lexicalScore(goalTokens, texts[i]!);
    const other = vectors[i + 1];
    const vector = goalVector && other ? cosine(goalVector, other) : null;
    return { taskId: document.taskId, document, lexical, vector, score: duplicateScore(lexical, vector) };
  });
  return scored
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, input.top ?? DEFAULT_DUPLICATE_TOP);
}
