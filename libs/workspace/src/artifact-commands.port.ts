import type { Actor, ArtifactAuthor, ArtifactKind } from '@lomo/contracts';

/**
 * The write side of the shared workspace: every change of an artefact is decided by the artefact's
 * decider from its stream (optimistic concurrency on versions, DESIGN.md §3 `artifact-` streams).
 * A refusal throws an `ArtifactRefusedError` (see artifact-errors.ts) carrying the current version
 * and what changed, so the writer re-reads and resubmits.
 */
export const ARTIFACT_COMMANDS = Symbol('ARTIFACT_COMMANDS');

export interface ArtifactWriteMeta {
  workspaceId: string;
  correlationId: string;
  causationId?: string | null;
  actor: Actor;
}

export type InitialContent =
  | { type: 'document'; text: string; contentType?: 'text/markdown' | 'text/plain' }
  | {
      type: 'flow';
      nodes: Array<{ nodeId: string; kind: string; params: Record<string, unknown> }>;
      edges: Array<{ edgeId: string; from: string; to: string }>;
    }
  | { type: 'blob'; bytes: Buffer; contentType: string }
  | { type: 'asset_set'; members: string[] };

export interface SnippetEdit {
  /** Must occur exactly once in the current text. */
  old: string;
  new: string;
}

export interface FlowNodeEdit {
  nodeId: string;
  /** The node version the writer read; the edit is refused only if this node changed since. */
  baseNodeVersion: number;
  params: Record<string, unknown>;
}

export interface ArtifactWriteResult {
  artifactId: string;
  /** The artefact version after the write (unchanged for a no-op repeat). */
  version: number;
  /** Revision of the artefact stream after the append (for consistency tokens). */
  streamRevision: number;
  /** Flows: nodes that others changed after the writer's base flow version (not the ones it edited). */
  otherChangedNodes?: Array<{ nodeId: string; version: number }>;
  /** Flows: the node versions after the write, for the nodes the writer touched. */
  nodeVersions?: Record<string, number>;
}

export interface ArtifactCommands {
  create(
    input: {
      artifactId: string;
      kind: ArtifactKind;
      title: string;
      by: ArtifactAuthor;
      taskId?: string;
      content: InitialContent;
    },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  /** A whole rewrite; refused if the document moved on from `baseVersion`. */
  rewriteDocument(
    input: { artifactId: string; baseVersion: number; text: string; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  /**
   * Snippet edits: applied on the latest text only if every `old` occurs exactly once; otherwise
   * nothing changes. `baseVersion` is what the writer read (recorded; a refusal names what moved).
   */
  editDocument(
    input: { artifactId: string; baseVersion: number; edits: SnippetEdit[]; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  /** Per-node optimistic concurrency; `baseVersion` is the flow version the writer read. */
  editFlowNodes(
    input: { artifactId: string; baseVersion: number; edits: FlowNodeEdit[]; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  changeFlowStructure(
    input: {
      artifactId: string;
      baseStructureVersion: number;
      addNodes?: Array<{ nodeId: string; kind: string; params: Record<string, unknown> }>;
      removeNodeIds?: string[];
      addEdges?: Array<{ edgeId: string; from: string; to: string }>;
      removeEdgeIds?: string[];
      by: ArtifactAuthor;
    },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  /** Media (and asset sets): a new version replacing the content. */
  replaceContent(
    input: { artifactId: string; baseVersion: number; content: InitialContent; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  /** An old version restored as a new version. */
  restoreVersion(
    input: { artifactId: string; baseVersion: number; fromVersion: number; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  /** Binds the artefact to a task (a repeat is a no-op). */
  reference(
    input: { artifactId: string; taskId: string; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  /** The person asks; nothing is deleted until `confirmDeletion`. */
  requestDeletion(
    input: { artifactId: string; requestId: string },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  confirmDeletion(
    input: { artifactId: string; requestId: string; userId: string },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
  /** The agent's delete, after the person resolved the task's approval checkpoint for the call. */
  deleteWithCheckpoint(
    input: { artifactId: string; taskId: string; checkpointId: string },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult>;
}

/** Authoritative reads from the artefact's stream (not the projection): what a writer bases on. */
export const ARTIFACT_READER = Symbol('ARTIFACT_READER');

export interface ArtifactSnapshot {
  artifactId: string;
  workspaceId: string;
  kind: ArtifactKind;
  title: string;
  version: number;
  deleted: boolean;
  references: string[];
}

export interface ArtifactReader {
  /** undefined when the artefact does not exist in this workspace. */
  snapshot(workspaceId: string, artifactId: string): Promise<ArtifactSnapshot | undefined>;
  /** The text of a version (latest by default); undefined when absent or purged. */
  documentText(
    workspaceId: string,
    artifactId: string,
    version?: number,
  ): Promise<{ version: number; text: string } | undefined>;
  flow(
    workspaceId: string,
    artifactId: string,
  ): Promise<
    | {
        version: number;
        structureVersion: number;
        nodes: Array<{ nodeId: string; kind: string; params: Record<string, unknown>; version: number }>;
        edges: Array<{ edgeId: string; from: string; to: string }>;
      }
    | undefined
  >;
}
