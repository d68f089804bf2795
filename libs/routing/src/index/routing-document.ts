/** Task lifecycle as the router sees it; `merged` is an archived task that points at its target. */
export type RoutingTaskStatus = 'active' | 'waiting' | 'paused' | 'stopped' | 'completed' | 'archived';

/**
 * `routing_index`: one document per task, what routing needs to pick a target and nothing more.
 * Read only through `RoutingIndex`; the task's details are read after it is chosen.
 */
export interface RoutingDocument {
  taskId: string;
  workspaceId: string;
  goal: string;
  summary: string | null;
  kind: 'lightweight' | 'persistent';
  status: RoutingTaskStatus;
  createdAt: string;
  lastActiveAt: string;
  artifactRefs: string[];
  /** Set by TasksMerged on the source task; such a task is no longer a routing target. */
  mergedInto: string | null;
}

/** Can a message still be routed to it (not archived, not merged away)? */
export function isRoutable(document: RoutingDocument): boolean {
  return document.status !== 'archived' && document.mergedInto === null;
}

/** Active enough to be the original a new goal duplicates. */
export function isActive(document: RoutingDocument): boolean {
  return (
    document.mergedInto === null &&
    (document.status === 'active' || document.status === 'waiting' || document.status === 'paused')
  );
}

/** The text routing searches and scores: the goal, then the summary when there is one. */
export function routingText(document: Pick<RoutingDocument, 'goal' | 'summary'>): string {
  return document.summary ? `${document.goal}\n${document.summary}` : document.goal;
}
