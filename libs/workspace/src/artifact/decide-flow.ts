import type { ChangeFlowStructure, EditFlowNodes } from './artifact-commands';
import type { ArtifactEvent, FlowEdgeData, FlowNodeData } from './artifact-events';
import { invalid, knownBase, liveOfType, refuse, sameJson } from './artifact-guards';
import type { ArtifactState, FlowBody, LiveArtifact } from './artifact-state';
import { checkFlowStructure } from './flow-structure';

type LiveFlow = LiveArtifact & { body: FlowBody };

/** A retried edit: every touched node is exactly what this author's edit from that base made it. */
function isRepeat(flow: LiveFlow, command: EditFlowNodes): boolean {
  return command.edits.every((edit) => {
    const node = flow.body.nodes[edit.nodeId];
    return (
      node !== undefined &&
      node.lastRevision !== null &&
      node.version === edit.baseNodeVersion + 1 &&
      node.lastRevision.baseNodeVersion === edit.baseNodeVersion &&
      sameJson(node.lastRevision.by, command.by) &&
      sameJson(node.params, edit.params)
    );
  });
}

/**
 * Per-node optimistic concurrency: refused only if a node this edit touches changed since its
 * base (or was removed); edits of other nodes by others do not matter, and the caller reports them.
 */
export function editFlowNodes(command: EditFlowNodes, state: ArtifactState): ArtifactEvent[] {
  const flow = liveOfType(state, 'flow', 'edit nodes of');
  knownBase(flow, command.baseVersion);
  if (command.edits.length === 0) invalid(flow, 'A flow edit needs at least one node');
  const seen = new Set<string>();
  for (const edit of command.edits) {
    if (seen.has(edit.nodeId)) invalid(flow, `Node ${edit.nodeId} is edited twice in one edit`);
    seen.add(edit.nodeId);
  }
  if (isRepeat(flow, command)) return [];
  const removed = command.edits.filter(
    (e) => flow.body.nodes[e.nodeId] === undefined && flow.body.removedNodes[e.nodeId] !== undefined,
  );
  if (removed.length > 0)
    refuse(flow, 'FLOW_NODE_DELETED', `Node ${removed.map((e) => e.nodeId).join(', ')} was removed from the flow`, {
      currentVersion: flow.version,
      currentStructureVersion: flow.body.structureVersion,
      changedNodes: removed.map((e) => ({ nodeId: e.nodeId, version: flow.body.removedNodes[e.nodeId].version })),
    });
  const unknown = command.edits.find((e) => flow.body.nodes[e.nodeId] === undefined);
  if (unknown !== undefined) invalid(flow, `Node ${unknown.nodeId} is not in the flow`);
  const moved = command.edits.filter((e) => flow.body.nodes[e.nodeId].version !== e.baseNodeVersion);
  if (moved.length > 0)
    refuse(
      flow,
      'FLOW_NODE_CONFLICT',
      `Node ${moved.map((e) => e.nodeId).join(', ')} changed since your base: re-read and resubmit`,
      {
        currentVersion: flow.version,
        changedNodes: moved.map((e) => ({ nodeId: e.nodeId, version: flow.body.nodes[e.nodeId].version })),
      },
    );
  const version = flow.version + 1;
  return command.edits.map((edit) => ({
    type: 'FlowNodeRevised' as const,
    data: {
      version,
      nodeId: edit.nodeId,
      nodeVersion: edit.baseNodeVersion + 1,
      baseNodeVersion: edit.baseNodeVersion,
      params: edit.params as FlowNodeData['params'],
      by: command.by,
    },
  }));
}

/** Adding or removing nodes and edges names the structure version it was based on. */
export function changeFlowStructure(command: ChangeFlowStructure, state: ArtifactState): ArtifactEvent[] {
  const flow = liveOfType(state, 'flow', 'change the structure of');
  const { body } = flow;
  const last = body.lastStructureChange;
  if (
    last !== null &&
    last.baseStructureVersion === command.baseStructureVersion &&
    body.structureVersion === command.baseStructureVersion + 1 &&
    sameJson(last.by, command.by) &&
    last.fingerprint === structureFingerprint(command)
  )
    return [];
  if (command.baseStructureVersion !== body.structureVersion)
    refuse(
      flow,
      'FLOW_STRUCTURE_CONFLICT',
      `The flow's structure moved on from version ${command.baseStructureVersion} to ${body.structureVersion}: re-read and resubmit`,
      { currentVersion: flow.version, currentStructureVersion: body.structureVersion },
    );
  const total =
    command.addNodes.length + command.removeNodeIds.length + command.addEdges.length + command.removeEdgeIds.length;
  if (total === 0) invalid(flow, 'A structure change needs at least one node or edge added or removed');
  for (const id of command.removeNodeIds)
    if (body.nodes[id] === undefined) refuse(flow, 'FLOW_INVALID_STRUCTURE', `Node ${id} is not in the flow`);
  for (const id of command.removeEdgeIds)
    if (body.edges[id] === undefined) refuse(flow, 'FLOW_INVALID_STRUCTURE', `Edge ${id} is not in the flow`);
  const removedNodes = new Set(command.removeNodeIds);
  const removedEdges = new Set(command.removeEdgeIds);
  for (const node of command.addNodes)
    if (body.nodes[node.nodeId] !== undefined && !removedNodes.has(node.nodeId))
      refuse(flow, 'FLOW_INVALID_STRUCTURE', `Node ${node.nodeId} is in the flow already`);
  for (const edge of command.addEdges)
    if (body.edges[edge.edgeId] !== undefined && !removedEdges.has(edge.edgeId))
      refuse(flow, 'FLOW_INVALID_STRUCTURE', `Edge ${edge.edgeId} is in the flow already`);
  // The structure after the change must hold whole: edges of removed nodes must go with them.
  const nodesAfter = [
    ...Object.keys(body.nodes)
      .filter((id) => !removedNodes.has(id))
      .map((nodeId) => ({ nodeId })),
    ...command.addNodes,
  ];
  const edgesAfter = [...Object.values(body.edges).filter((e) => !removedEdges.has(e.edgeId)), ...command.addEdges];
  checkFlowStructure(flow, nodesAfter, edgesAfter);
  const addedNodes: FlowNodeData[] = command.addNodes.map((n) => ({
    nodeId: n.nodeId,
    kind: n.kind,
    params: n.params as FlowNodeData['params'],
    // A node added again under a removed id continues its count, so an old base never matches.
    version: Math.max(body.removedNodes[n.nodeId]?.version ?? 0, body.nodes[n.nodeId]?.version ?? 0) + 1,
  }));
  const addedEdges: FlowEdgeData[] = command.addEdges.map((e) => ({ edgeId: e.edgeId, from: e.from, to: e.to }));
  return [
    {
      type: 'FlowStructureChanged',
      data: {
        version: flow.version + 1,
        structureVersion: body.structureVersion + 1,
        baseStructureVersion: command.baseStructureVersion,
        addedNodes,
        removedNodeIds: [...command.removeNodeIds],
        addedEdges,
        removedEdgeIds: [...command.removeEdgeIds],
        by: command.by,
      },
    },
  ];
}

/** What a structure change asked for, independent of the versions it was decided at. */
export function structureFingerprint(change: {
  addNodes?: ReadonlyArray<{ nodeId: string; kind: string; params: unknown }>;
  addedNodes?: ReadonlyArray<{ nodeId: string; kind: string; params: unknown }>;
  removeNodeIds?: readonly string[];
  removedNodeIds?: readonly string[];
  addEdges?: readonly FlowEdgeData[];
  addedEdges?: readonly FlowEdgeData[];
  removeEdgeIds?: readonly string[];
  removedEdgeIds?: readonly string[];
}): string {
  const nodes = (change.addNodes ?? change.addedNodes ?? []).map((n) => [n.nodeId, n.kind, n.params]);
  const edges = (change.addEdges ?? change.addedEdges ?? []).map((e) => [e.edgeId, e.from, e.to]);
  return JSON.stringify([
    nodes,
    change.removeNodeIds ?? change.removedNodeIds ?? [],
    edges,
    change.removeEdgeIds ?? change.removedEdgeIds ?? [],
  ]);
}
