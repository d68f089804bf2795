import type { ArtifactAuthor, ArtifactKind } from '@lomo/contracts';
import type { ProjectionDocument } from '@lomo/read-models';
import type { ArtifactVersionView } from '../workspace-read.port';

/**
 * `workspace_artifacts`: one document per artefact (`_id` = artifactId), every field from its
 * `artifact-` stream. The version list lives in `workspace_artifact_versions` so a document edited
 * ten thousand times stays small; references by task in `workspace_task_artifacts`.
 */
export type ArtifactDocument = ProjectionDocument & {
  /** ArtifactCreated applied; readers skip the document until then. */
  created: boolean;
  artifactId: string;
  kind: ArtifactKind | null;
  title: string;
  version: number;
  createdAt: string | null;
  updatedAt: string | null;
  deleted: boolean;
  deletionRequested: { requestId: string; by: string } | null;
  /** Tasks that reference it, the creating task first. */
  taskIds: string[];
  /** The latest content's blob or text hash (media, documents), with its size and type. */
  contentHash: string | null;
  contentType: string | null;
  bytes: number | null;
  flow: {
    structureVersion: number;
    nodes: Array<{ nodeId: string; kind: string; version: number }>;
    edgeCount: number;
  } | null;
  members: string[] | null;
  /** Derived: created and not deleted, for the list indexes. */
  listed: boolean;
  /** Derived: the lower-cased title, for the text filter. */
  searchText: string;
};

/**
 * `workspace_artifact_versions`: one document per artefact version (`_id` = `{artifactId}:{version}`,
 * zero-padded so ids sort by version). A flow edit touching several nodes appends one
 * FlowNodeRevised per node with the same version: they meet in one document.
 */
export type ArtifactVersionDocument = ProjectionDocument & {
  artifactId: string;
  version: number;
  at: string | null;
  by: ArtifactAuthor | null;
  change: ArtifactVersionView['change'] | null;
  contentHash: string | null;
  contentType: string | null;
  bytes: number | null;
  summary: string | null;
  /** Flows: the nodes this version changed (params, or added / removed). */
  nodes: string[];
};

/**
 * `workspace_task_artifacts`: one document per (task, artefact) (`_id` = `{taskId}:{artifactId}`):
 * the reference (from the artefact stream) and the version the task last saw, derived from its
 * recorded tool calls (no extra event per read): each `turn-` stream's ToolCallCompleted results
 * with a top-level `artifact: {artifactId, version}` write `seenByTurn[<turnId>]`, and the task's
 * own agent writes on the artefact stream write `wroteVersion`.
 */
export type TaskArtifactDocument = ProjectionDocument & {
  taskId: string;
  artifactId: string;
  referenced: boolean;
  referencedAt: string | null;
  wroteVersion: number;
  seenByTurn: Record<string, number>;
  /** Derived: the highest version the task read or wrote (0 = none). */
  lastSeenVersion: number;
};

/**
 * `workspace_notices`: one document per change notice of a task (`_id` = `{taskId}:{noticeId}`),
 * every field from the `task-` stream: open until a step consumed it.
 */
export type NoticeDocument = ProjectionDocument & {
  created: boolean;
  taskId: string;
  noticeId: string;
  artifactId: string;
  fromVersion: number;
  toVersion: number;
  nodes: string[];
  summary: string;
  by: ArtifactAuthor | null;
  noticedAt: string | null;
  updatedAt: string | null;
  open: boolean;
  consumedBy: { turnId: string; step: number } | null;
};

export const versionDocumentId = (artifactId: string, version: number) =>
  `${artifactId}:${version.toString().padStart(10, '0')}`;
export const taskArtifactDocumentId = (taskId: string, artifactId: string) => `${taskId}:${artifactId}`;
export const noticeDocumentId = (taskId: string, noticeId: string) => `${taskId}:${noticeId}`;
