import type { RoutingDocument } from './routing-document';

export const ROUTING_INDEX = Symbol('ROUTING_INDEX');

/** Reads of the `routing_index` read model, always within one workspace. */
export interface RoutingIndex {
  /** The `limit` most recently active tasks a message can still be routed to (not archived or merged). */
  recent(workspaceId: string, limit: number): Promise<RoutingDocument[]>;
  /** The `limit` most recently active tasks that are active, waiting or paused (the duplicate check's pool). */
  recentActive(workspaceId: string, limit: number): Promise<RoutingDocument[]>;
  /** The documents of these tasks that exist in this workspace, in the order asked. */
  get(workspaceId: string, taskIds: readonly string[]): Promise<RoutingDocument[]>;
}
