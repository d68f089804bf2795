import type { RoutingCandidates } from '../plan/routing-candidates.port';
import type { DuplicateCandidate, RouteCandidate } from '../plan/routing-view';
import type { RoutingDocument } from '../index/routing-document';
import { duplicateCandidates } from './duplicate-candidates';
import { retrieveCandidates, type CandidateSources } from './retrieve-candidates';

/**
 * The router's candidates from the routing index and the search index: the recent tasks, older
 * work by keywords and summary vectors, and the main line's recent decisions. The router's
 * evidence for a candidate is the lexical score, plus the recency boost the main line gave a task
 * it routed to moments ago (route-user-message.handler.ts).
 */
export class IndexedRoutingCandidates implements RoutingCandidates {
  constructor(
    private readonly sources: CandidateSources,
    private readonly limits: { recent: number; retrieved: number } = { recent: 20, retrieved: 5 },
  ) {}

  async retrieve(input: {
    workspaceId: string;
    text: string;
    alsoInclude: readonly RouteCandidate[];
  }): Promise<RouteCandidate[]> {
    const boost = new Map(input.alsoInclude.map((c) => [c.taskId, c.evidence]));
    const found = await retrieveCandidates(this.sources, {
      workspaceId: input.workspaceId,
      text: input.text,
      recent: this.limits.recent,
      retrieved: this.limits.retrieved,
      alsoInclude: input.alsoInclude.map((c) => documentOf(input.workspaceId, c)),
    });
    return found.map((c) => ({
      taskId: c.taskId,
      goal: c.document.goal,
      summary: c.document.summary,
      kind: c.document.kind,
      status: c.document.status,
      lastActiveAt: c.document.lastActiveAt,
      source: c.source,
      evidence: Math.min(1, c.score + (boost.get(c.taskId) ?? 0)),
    }));
  }

  async duplicates(input: { workspaceId: string; goal: string }): Promise<DuplicateCandidate[]> {
    const found = await duplicateCandidates(this.sources, { workspaceId: input.workspaceId, goal: input.goal });
    return found.map((d) => ({ taskId: d.taskId, goal: d.document.goal, summary: d.document.summary, score: d.score }));
  }
}

function documentOf(workspaceId: string, c: RouteCandidate): RoutingDocument {
  return {
    taskId: c.taskId,
    workspaceId,
    goal: c.goal,
    summary: c.summary,
    kind: c.kind,
    status: c.status,
    createdAt: c.lastActiveAt,
    lastActiveAt: c.lastActiveAt,
    artifactRefs: [],
    mergedInto: null,
  };
}
