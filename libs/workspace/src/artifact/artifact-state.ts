import type { Actor, ArtifactAuthor, ArtifactKind } from '@lomo/contracts';
import type { BlobRefData, DocumentTextData, FlowEdgeData } from './artifact-events';

/**
 * One version's text in a document's history. A persistent list (newest first, each link points
 * at the one before), so folding 10 000 edits appends a link instead of copying an array.
 * `patch` is set for snippet edits: the text is the previous version's with the patch applied.
 */
export interface TextLink {
  version: number;
  text: DocumentTextData;
  patch: BlobRefData | null;
  prev: TextLink | null;
}

export interface DocumentBody {
  type: 'document';
  contentType: string;
  text: DocumentTextData;
  history: TextLink;
  /** Since the last full snapshot: how many versions, and how many patch bytes (the snapshot rule). */
  sinceSnapshot: { versions: number; patchBytes: number };
}

export interface FlowNodeState {
  nodeId: string;
  kind: string;
  params: Record<string, unknown>;
  /** The node's own version (per-node optimistic concurrency). */
  version: number;
  /** The artefact version at which the node last changed (params, added or restored). */
  changedAt: number;
  /** Who made the node's last params revision, and from which base: a retried tool call is a no-op. */
  lastRevision: { by: ArtifactAuthor; baseNodeVersion: number } | null;
}

export interface FlowBody {
  type: 'flow';
  structureVersion: number;
  nodes: Readonly<Record<string, FlowNodeState>>;
  edges: Readonly<Record<string, FlowEdgeData>>;
  /**
   * Nodes removed by a structure change: their last version and when. An edit based on such a
   * node is refused as deleted; a node added again under the same id continues its version count.
   */
  removedNodes: Readonly<Record<string, { version: number; removedAt: number }>>;
  /** The last structure change, so the same change retried from the same base is a no-op. */
  lastStructureChange: { by: ArtifactAuthor; baseStructureVersion: number; fingerprint: string } | null;
}

/** One version of a media or asset-set artefact (persistent list, newest first), for restores. */
export interface ContentLink<C> {
  version: number;
  content: C;
  prev: ContentLink<C> | null;
}

export interface BlobBody {
  type: 'blob';
  blob: BlobRefData;
  history: ContentLink<BlobRefData>;
}

export interface AssetSetBody {
  type: 'asset_set';
  members: readonly string[];
  history: ContentLink<readonly string[]>;
}

export type ArtifactBody = DocumentBody | FlowBody | BlobBody | AssetSetBody;

/**
 * The last whole write (rewrite, snippet edit, replace, restore): its author, base and a
 * fingerprint of what it asked for (the text or patch hash), so the same request again is a no-op.
 */
export interface LastWrite {
  by: ArtifactAuthor;
  baseVersion: number;
  fingerprint: string;
}

interface ArtifactBase {
  artifactId: string;
  kind: ArtifactKind;
  title: string;
  createdBy: ArtifactAuthor;
  version: number;
  /** Tasks that reference it, the creating task first. */
  references: readonly string[];
}

/** Exists and accepts writes. */
export interface LiveArtifact extends ArtifactBase {
  status: 'live';
  body: ArtifactBody;
  lastWrite: LastWrite | null;
  /** Open deletion requests by request id (nothing is deleted until one is confirmed). */
  deletionRequests: Readonly<Record<string, Actor>>;
}

/** Final: gone from lists, refuses every write; references show it as deleted. */
export interface DeletedArtifact extends ArtifactBase {
  status: 'deleted';
  deletedBy: Actor;
  /** `request:{id}` or `checkpoint:{id}`: a repeat of the same confirmation is a no-op. */
  confirmationKey: string;
}

export type ExistingArtifact = LiveArtifact | DeletedArtifact;
export type ArtifactState = { status: 'none' } | ExistingArtifact;
export type ArtifactStatus = ArtifactState['status'];

export const initialArtifactState = (): ArtifactState => ({ status: 'none' });

/** Snapshots are written at least every this many versions (also when patches outgrow the text). */
export const SNAPSHOT_EVERY_VERSIONS = 32;
