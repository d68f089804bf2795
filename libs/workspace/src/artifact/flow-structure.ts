import type { FlowEdgeData } from './artifact-events';
import { refuse } from './artifact-guards';
import type { ArtifactState } from './artifact-state';

/**
 * A flow's structure holds when node and edge ids are unique and every edge joins two nodes of
 * the flow. Refused with FLOW_INVALID_STRUCTURE, naming the first problem found.
 */
export function checkFlowStructure(
  state: ArtifactState,
  nodes: ReadonlyArray<{ nodeId: string }>,
  edges: readonly FlowEdgeData[],
): void {
  const nodeIds = new Set<string>();
  for (const node of nodes) {
    if (nodeIds.has(node.nodeId)) refuse(state, 'FLOW_INVALID_STRUCTURE', `Node ${node.nodeId} appears twice`);
    nodeIds.add(node.nodeId);
  }
  const edgeIds = new Set<string>();
  for (const edge of edges) {
    if (edgeIds.has(edge.edgeId)) refuse(state, 'FLOW_INVALID_STRUCTURE', `Edge ${edge.edgeId} appears twice`);
    edgeIds.add(edge.edgeId);
    for (const end of [edge.from, edge.to])
      if (!nodeIds.has(end))
        refuse(state, 'FLOW_INVALID_STRUCTURE', `Edge ${edge.edgeId} references node ${end}, which is not in the flow`);
  }
}
