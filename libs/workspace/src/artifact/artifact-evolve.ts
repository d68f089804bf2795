import { assertNever } from '@lomo/domain';
import type { ArtifactContentData, ArtifactEvent, ArtifactEventOf, FlowNodeData } from './artifact-events';
import type { ArtifactBody, ArtifactState, FlowBody, FlowNodeState, LiveArtifact } from './artifact-state';
import { fingerprintOf } from './decide-document';
import { structureFingerprint } from './decide-flow';

const DEFAULT_DOCUMENT_TYPE = 'text/markdown';

function nodeState(node: FlowNodeData, changedAt: number): FlowNodeState {
  return {
    nodeId: node.nodeId,
    kind: node.kind,
    params: node.params as Record<string, unknown>,
    version: node.version,
    changedAt,
    lastRevision: null,
  };
}

function flowBody(
  content: Extract<ArtifactContentData, { type: 'flow' }>,
  version: number,
  previous?: FlowBody,
): FlowBody {
  const nodes: Record<string, FlowNodeState> = {};
  for (const node of content.nodes) {
    const before = previous?.nodes[node.nodeId];
    // A restored node that kept its version did not change at this version.
    nodes[node.nodeId] = before !== undefined && before.version === node.version ? before : nodeState(node, version);
  }
  const removedNodes: FlowBody['removedNodes'] = { ...previous?.removedNodes };
  for (const id of Object.keys(nodes)) delete (removedNodes as Record<string, unknown>)[id];
  for (const before of Object.values(previous?.nodes ?? {}))
    if (nodes[before.nodeId] === undefined)
      (removedNodes as Record<string, { version: number; removedAt: number }>)[before.nodeId] = {
        version: before.version,
        removedAt: version,
      };
  return {
    type: 'flow',
    structureVersion: previous === undefined ? 1 : previous.structureVersion + 1,
    nodes,
    edges: Object.fromEntries(content.edges.map((e) => [e.edgeId, e])),
    removedNodes,
    lastStructureChange: null,
  };
}

/** The body a whole new content gives (created, replaced or restored). */
function bodyOf(content: ArtifactContentData, version: number, previous?: ArtifactBody): ArtifactBody {
  switch (content.type) {
    case 'document': {
      const contentType =
        content.text.snapshot?.contentType ??
        (previous?.type === 'document' ? previous.contentType : DEFAULT_DOCUMENT_TYPE);
      const prev = previous?.type === 'document' ? previous.history : null;
      return {
        type: 'document',
        contentType,
        text: content.text,
        history: { version, text: content.text, patch: null, prev },
        sinceSnapshot: { versions: 0, patchBytes: 0 },
      };
    }
    case 'flow':
      return flowBody(content, version, previous?.type === 'flow' ? previous : undefined);
    case 'blob':
      return {
        type: 'blob',
        blob: content.blob,
        history: { version, content: content.blob, prev: previous?.type === 'blob' ? previous.history : null },
      };
    case 'asset_set':
      return {
        type: 'asset_set',
        members: content.members,
        history: { version, content: content.members, prev: previous?.type === 'asset_set' ? previous.history : null },
      };
    default:
      return assertNever(content, 'artefact content');
  }
}

function revised(artifact: LiveArtifact, event: ArtifactEventOf<'ArtifactRevised'>): LiveArtifact {
  const { version, baseVersion, by, change } = event.data;
  const lastWrite = { by, baseVersion, fingerprint: fingerprintOf(change) };
  if (change.type !== 'snippets_edited')
    return { ...artifact, version, lastWrite, body: bodyOf(change.content, version, artifact.body) };
  if (artifact.body.type !== 'document') return { ...artifact, version, lastWrite };
  const doc = artifact.body;
  const snapshotted = change.text.snapshot !== undefined;
  return {
    ...artifact,
    version,
    lastWrite,
    body: {
      ...doc,
      text: change.text,
      history: { version, text: change.text, patch: change.patch, prev: doc.history },
      sinceSnapshot: snapshotted
        ? { versions: 0, patchBytes: 0 }
        : { versions: doc.sinceSnapshot.versions + 1, patchBytes: doc.sinceSnapshot.patchBytes + change.patch.bytes },
    },
  };
}

function nodeRevised(artifact: LiveArtifact, event: ArtifactEventOf<'FlowNodeRevised'>): LiveArtifact {
  const { version, nodeId, nodeVersion, baseNodeVersion, params, by } = event.data;
  if (artifact.body.type !== 'flow') return artifact;
  const before = artifact.body.nodes[nodeId];
  if (before === undefined) return { ...artifact, version };
  const node: FlowNodeState = {
    ...before,
    params: params as Record<string, unknown>,
    version: nodeVersion,
    changedAt: version,
    lastRevision: { by, baseNodeVersion },
  };
  return { ...artifact, version, body: { ...artifact.body, nodes: { ...artifact.body.nodes, [nodeId]: node } } };
}

function structureChanged(artifact: LiveArtifact, event: ArtifactEventOf<'FlowStructureChanged'>): LiveArtifact {
  const data = event.data;
  if (artifact.body.type !== 'flow') return artifact;
  const body = artifact.body;
  const nodes: Record<string, FlowNodeState> = { ...body.nodes };
  const edges = { ...body.edges };
  const removedNodes = { ...body.removedNodes };
  for (const id of data.removedNodeIds) {
    const node = nodes[id];
    if (node !== undefined) removedNodes[id] = { version: node.version, removedAt: data.version };
    delete nodes[id];
  }
  for (const id of data.removedEdgeIds) delete edges[id];
  for (const node of data.addedNodes) {
    nodes[node.nodeId] = nodeState(node, data.version);
    delete removedNodes[node.nodeId];
  }
  for (const edge of data.addedEdges) edges[edge.edgeId] = edge;
  const lastStructureChange = {
    by: data.by,
    baseStructureVersion: data.baseStructureVersion,
    fingerprint: structureFingerprint(data),
  };
  return {
    ...artifact,
    version: data.version,
    body: { ...body, structureVersion: data.structureVersion, nodes, edges, removedNodes, lastStructureChange },
  };
}

function created(event: ArtifactEventOf<'ArtifactCreated'>): LiveArtifact {
  const { artifactId, kind, title, createdBy, taskId, content } = event.data;
  return {
    status: 'live',
    artifactId,
    kind,
    title,
    createdBy,
    version: 1,
    references: taskId !== undefined ? [taskId] : [],
    body: bodyOf(content, 1),
    lastWrite: null,
    deletionRequests: {},
  };
}

/**
 * Folds one artefact event. Events were validated when decided or read, so evolve trusts them;
 * an event before ArtifactCreated, or a write after the deletion, leaves the state as is.
 */
export function evolveArtifact(state: ArtifactState, event: ArtifactEvent): ArtifactState {
  if (event.type === 'ArtifactCreated') return state.status === 'none' ? created(event) : state;
  if (state.status === 'none') return state;
  if (event.type === 'ArtifactReferenced') {
    if (state.references.includes(event.data.taskId)) return state;
    return { ...state, references: [...state.references, event.data.taskId] };
  }
  if (state.status === 'deleted') return state;
  switch (event.type) {
    case 'ArtifactRevised':
      return revised(state, event);
    case 'FlowNodeRevised':
      return nodeRevised(state, event);
    case 'FlowStructureChanged':
      return structureChanged(state, event);
    case 'ArtifactDeletionRequested':
      return { ...state, deletionRequests: { ...state.deletionRequests, [event.data.requestId]: event.data.by } };
    case 'ArtifactDeleted': {
      const c = event.data.confirmation;
      const { artifactId, kind, title, createdBy, version, references } = state;
      return {
        status: 'deleted',
        artifactId,
        kind,
        title,
        createdBy,
        version,
        references,
        deletedBy: event.data.by,
        confirmationKey: c.kind === 'request' ? `request:${c.requestId}` : `checkpoint:${c.checkpointId}`,
      };
    }
    default:
      return assertNever(event, 'artefact event');
  }
}
