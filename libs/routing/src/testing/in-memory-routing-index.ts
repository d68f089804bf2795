import { isActive, isRoutable, type RoutingDocument } from '../index/routing-document';
import type { RoutingIndex } from '../index/routing-index.port';

/** RoutingIndex over a plain map, for tests of what reads it. */
export class InMemoryRoutingIndex implements RoutingIndex {
  readonly documents = new Map<string, RoutingDocument>();

  put(...documents: RoutingDocument[]): this {
    for (const d of documents) this.documents.set(d.taskId, d);
    return this;
  }

  async recent(workspaceId: string, limit: number): Promise<RoutingDocument[]> {
    return this.latest(workspaceId, isRoutable, limit);
  }

  async recentActive(workspaceId: string, limit: number): Promise<RoutingDocument[]> {
    return this.latest(workspaceId, isActive, limit);
  }

  async get(workspaceId: string, taskIds: readonly string[]): Promise<RoutingDocument[]> {
    return taskIds
      .map((id) => this.documents.get(id))
      .filter((d): d is RoutingDocument => d !== undefined && d.workspaceId === workspaceId);
  }

  private latest(workspaceId: string, keep: (d: RoutingDocument) => boolean, limit: number) {
    return [...this.documents.values()]
      .filter((d) => d.workspaceId === workspaceId && keep(d))
      .sort((a, b) => b.lastActiveAt.localeCompare(a.lastActiveAt))
      .slice(0, limit);
  }
}

/** A routing document with test defaults. */
export function aRoutingDocument(
  overrides: Partial<RoutingDocument> & { taskId: string; goal: string },
): RoutingDocument {
  return {
    workspaceId: 'ws-1',
    summary: null,
    kind: 'persistent',
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastActiveAt: '2026-01-01T00:00:00.000Z',
    artifactRefs: [],
    mergedInto: null,
    ...overrides,
  };
}
