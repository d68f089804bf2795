import type { DuplicateCandidate, RouteCandidate } from './routing-view';

export const ROUTING_CANDIDATES = Symbol('ROUTING_CANDIDATES');

/**
 * The bounded candidate set of a message (DESIGN.md §4 step 2): the most recently active tasks
 * plus the best of older work by keywords and summary vectors, so the prompt does not grow with
 * the number of tasks; and the closest active tasks to a new goal, for the duplicate check.
 */
export interface RoutingCandidates {
  /** `alsoInclude`: tasks the main line routed to moments ago, present even when the index lags. */
  retrieve(input: {
    workspaceId: string;
    text: string;
    alsoInclude: readonly RouteCandidate[];
  }): Promise<RouteCandidate[]>;
  duplicates(input: { workspaceId: string; goal: string }): Promise<DuplicateCandidate[]>;
}
