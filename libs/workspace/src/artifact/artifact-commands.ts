import type { Actor, ArtifactAuthor, ArtifactKind } from '@lomo/contracts';
import type { BlobRefData, FlowEdgeData } from './artifact-events';

// Commands spell out their own fields rather than reusing an event's data (as libs/domain does),
// so a change of an event's schema shows up in the decider that maps a command to it.

export interface NewFlowNode {
  nodeId: string;
  kind: string;
  params: Record<string, unknown>;
}

/** What a new artefact starts with. Document text is given whole; the decider hashes it. */
export type CreateContent =
  | { type: 'document'; text: string; contentType: string }
  | { type: 'flow'; nodes: readonly NewFlowNode[]; edges: readonly FlowEdgeData[] }
  | { type: 'blob'; blob: BlobRefData }
  | { type: 'asset_set'; members: readonly string[] };

/** Creating the same artefact (same id, kind, title, author) again is a no-op. */
export type CreateArtifact = {
  type: 'CreateArtifact';
  artifactId: string;
  kind: ArtifactKind;
  title: string;
  by: ArtifactAuthor;
  taskId?: string;
  content: CreateContent;
};

/** A whole rewrite: refused unless `baseVersion` is the current version. */
export type RewriteDocument = {
  type: 'RewriteDocument';
  baseVersion: number;
  text: string;
  by: ArtifactAuthor;
};

/**
 * Snippet edits on the latest text. The runner passes the current version's text in
 * (`currentText`, which must hash to the state's text), so the decider stays pure.
 */
export type EditDocumentSnippets = {
  type: 'EditDocumentSnippets';
  baseVersion: number;
  edits: ReadonlyArray<{ old: string; new: string }>;
  by: ArtifactAuthor;
  currentText: string;
};

export type EditFlowNodes = {
  type: 'EditFlowNodes';
  /** The flow version the writer read: other nodes changed since are reported, not refused. */
  baseVersion: number;
  edits: ReadonlyArray<{ nodeId: string; baseNodeVersion: number; params: Record<string, unknown> }>;
  by: ArtifactAuthor;
};

export type ChangeFlowStructure = {
  type: 'ChangeFlowStructure';
  baseStructureVersion: number;
  addNodes: readonly NewFlowNode[];
  removeNodeIds: readonly string[];
  addEdges: readonly FlowEdgeData[];
  removeEdgeIds: readonly string[];
  by: ArtifactAuthor;
};

/** Media and asset sets: a new version with other content. */
export type ReplaceContent = {
  type: 'ReplaceContent';
  baseVersion: number;
  content: { type: 'blob'; blob: BlobRefData } | { type: 'asset_set'; members: readonly string[] };
  by: ArtifactAuthor;
};

/**
 * An old version restored as a new one. Flows keep no per-version history in the state, so the
 * runner passes the flow as it was at `fromVersion` (folded from the stream).
 */
export type RestoreVersion = {
  type: 'RestoreVersion';
  baseVersion: number;
  fromVersion: number;
  by: ArtifactAuthor;
  fromFlow?: { nodes: readonly NewFlowNode[]; edges: readonly FlowEdgeData[] };
};

/** Binds the artefact to a task; a repeat is a no-op. */
export type ReferenceArtifact = { type: 'ReferenceArtifact'; taskId: string; by: ArtifactAuthor };

export type RequestDeletion = { type: 'RequestDeletion'; requestId: string; by: Actor };

/** The person confirms their request: only a person's confirmation deletes. */
export type ConfirmDeletion = { type: 'ConfirmDeletion'; requestId: string; confirmedBy: string; by: Actor };

/**
 * The agent's delete. The runner reads the task stream and passes the person's recorded
 * resolution of the checkpoint (null when there is none); a model's claim is never one.
 */
export type DeleteWithCheckpoint = {
  type: 'DeleteWithCheckpoint';
  taskId: string;
  checkpointId: string;
  approval: { decision: 'approve' | 'reject'; resolvedBy: string } | null;
  by: Actor;
};

export type ArtifactCommand =
  | CreateArtifact
  | RewriteDocument
  | EditDocumentSnippets
  | EditFlowNodes
  | ChangeFlowStructure
  | ReplaceContent
  | RestoreVersion
  | ReferenceArtifact
  | RequestDeletion
  | ConfirmDeletion
  | DeleteWithCheckpoint;
