import { overlap, tokenSet } from '@lomo/text';
import type { RoutingCandidates } from '../plan/routing-candidates.port';
import type { DuplicateCandidate, RouteCandidate } from '../plan/routing-view';

type Seeded = Omit<RouteCandidate, 'source' | 'evidence'>;

/**
 * A routing index a test fills by hand (`add`), scored lexically like the real retrieval. It lags
 * by construction: a task the router just created is not in it until the test adds it, which is
 * how read-your-writes is tested.
 */
export class FakeRoutingCandidates implements RoutingCandidates {
  private readonly tasks = new Map<string, Seeded[]>();
  readonly retrievals: string[] = [];

  add(workspaceId: string, task: Seeded): this {
    const list = this.tasks.get(workspaceId) ?? [];
    this.tasks.set(workspaceId, [...list.filter((t) => t.taskId !== task.taskId), task]);
    return this;
  }

  async retrieve(input: {
    workspaceId: string;
    text: string;
    alsoInclude: readonly RouteCandidate[];
  }): Promise<RouteCandidate[]> {
    this.retrievals.push(input.text);
    const query = tokenSet(input.text);
    const byId = new Map<string, RouteCandidate>();
    for (const task of this.tasks.get(input.workspaceId) ?? []) {
      if (task.status === 'archived') continue;
      const evidence = overlap(query, tokenSet(`${task.goal} ${task.summary ?? ''}`));
      byId.set(task.taskId, { ...task, source: 'recent', evidence });
    }
    for (const recent of input.alsoInclude) {
      const lexical = overlap(query, tokenSet(`${recent.goal} ${recent.summary ?? ''}`));
      const known = byId.get(recent.taskId);
      byId.set(recent.taskId, {
        ...(known ?? recent),
        source: 'recent_decision',
        evidence: Math.min(1, Math.max(lexical, known?.evidence ?? 0) + recent.evidence),
      });
    }
    return [...byId.values()].sort((a, b) => b.lastActiveAt.localeCompare(a.lastActiveAt)).slice(0, 25);
  }

  async duplicates(input: { workspaceId: string; goal: string }): Promise<DuplicateCandidate[]> {
    const goal = tokenSet(input.goal);
    return (this.tasks.get(input.workspaceId) ?? [])
      .filter((t) => t.status === 'active' || t.status === 'waiting' || t.status === 'paused')
      .map((t) => ({ taskId: t.taskId, goal: t.goal, summary: t.summary, score: overlap(goal, tokenSet(t.goal)) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 3);
  }
}
