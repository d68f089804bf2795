import { z } from 'zod';
import { blobRef, jsonValue, nonBlank } from './shared';
import { callId, checkpointId, sha256Hex, taskId, userId, uuid } from '../ids';
import { actorSchema } from '../envelope';

/**
 * The `artifact-{artifactId}` stream (DESIGN.md §3): one artefact of the shared workspace, with a
 * life cycle of its own, independent of any task or conversation. Text lives in the BlobStore and
 * events carry its hash (DESIGN.md §4 "Deletable content"); flows carry their structure inline.
 */
export const artifactKind = z.enum(['image', 'video', '3d', 'audio', 'document', 'asset_set', 'flow']);
export type ArtifactKind = z.infer<typeof artifactKind>;

/** Who made a version: the person, the agent inside a task's tool call, or a generation job. */
export const artifactAuthor = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('person'), userId }),
  z.strictObject({ kind: z.literal('agent'), taskId, callId }),
  z.strictObject({ kind: z.literal('generation'), jobId: uuid, taskId: taskId.optional() }),
]);
export type ArtifactAuthor = z.infer<typeof artifactAuthor>;

export const flowNodeId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'node ids are 1-64 of [A-Za-z0-9_-]');
export const flowNode = z.strictObject({
  nodeId: flowNodeId,
  kind: z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/),
  params: z.record(z.string().max(64), jsonValue),
  /** The node's own version: 1 when added, +1 on each revision of its params. */
  version: z.number().int().min(1),
});
export const flowEdge = z.strictObject({
  edgeId: flowNodeId,
  from: flowNodeId,
  to: flowNodeId,
});

/**
 * The full text of a document version. `hash` is the sha256 of the text; `snapshot` is present
 * when the full text was written to the BlobStore at this version (a rewrite, a restore, or every
 * few edits), otherwise the text is the last snapshot with the later patches applied.
 */
export const documentText = z.strictObject({
  hash: sha256Hex,
  bytes: z.number().int().min(0),
  snapshot: blobRef.optional(),
});

/** What a version holds, by kind. */
export const artifactContent = z.discriminatedUnion('type', [
  /** image, video, 3d, audio: bytes in the BlobStore. */
  z.strictObject({ type: z.literal('blob'), blob: blobRef }),
  z.strictObject({ type: z.literal('document'), text: documentText }),
  z.strictObject({
    type: z.literal('flow'),
    nodes: z.array(flowNode).max(5000),
    edges: z.array(flowEdge).max(20_000),
  }),
  z.strictObject({ type: z.literal('asset_set'), members: z.array(uuid).max(10_000) }),
]);
export type ArtifactContent = z.infer<typeof artifactContent>;

export const ArtifactCreated = z.strictObject({
  artifactId: uuid,
  kind: artifactKind,
  title: nonBlank(300),
  createdBy: artifactAuthor,
  /** The task that created it, if any; it is bound to that task (a reference is implied). */
  taskId: taskId.optional(),
  content: artifactContent,
});

/**
 * A whole new version (version = baseVersion + 1 always, since the decider refuses a stale base;
 * baseVersion is what the writer read).
 */
export const artifactChange = z.discriminatedUnion('type', [
  /** Media replaced, or a document rewritten whole. */
  z.strictObject({ type: z.literal('replaced'), content: artifactContent }),
  /**
   * Snippet edits of a document: the patch (the `old` → `new` pairs) is a small blob, so an edit
   * of a large document costs the size of its snippets, not of the document.
   */
  z.strictObject({
    type: z.literal('snippets_edited'),
    patch: blobRef,
    edits: z.number().int().min(1).max(1000),
    /** A short description of what changed, without the text itself (e.g. "2 snippets, +40 −12 chars"). */
    summary: z.string().min(1).max(300),
    text: documentText,
  }),
  /** An old version restored, as a new version. */
  z.strictObject({ type: z.literal('restored'), fromVersion: z.number().int().min(1), content: artifactContent }),
]);

export const ArtifactRevised = z.strictObject({
  version: z.number().int().min(2),
  baseVersion: z.number().int().min(1),
  by: artifactAuthor,
  change: artifactChange,
});

/**
 * One node's params changed (flows). A flow edit touching several nodes appends one of these per
 * node in one append, all with the same artefact `version`.
 */
export const FlowNodeRevised = z.strictObject({
  version: z.number().int().min(2),
  nodeId: flowNodeId,
  nodeVersion: z.number().int().min(2),
  baseNodeVersion: z.number().int().min(1),
  params: z.record(z.string().max(64), jsonValue),
  by: artifactAuthor,
});

/** Nodes or edges added or removed; the flow's structure version rises by one. */
export const FlowStructureChanged = z.strictObject({
  version: z.number().int().min(2),
  structureVersion: z.number().int().min(2),
  baseStructureVersion: z.number().int().min(1),
  addedNodes: z.array(flowNode).max(5000),
  removedNodeIds: z.array(flowNodeId).max(5000),
  addedEdges: z.array(flowEdge).max(20_000),
  removedEdgeIds: z.array(flowNodeId).max(20_000),
  by: artifactAuthor,
});

/** A task uses the artefact (binds it for routing); the same artefact in two tasks is one artefact. */
export const ArtifactReferenced = z.strictObject({
  taskId,
  by: artifactAuthor,
});

/** The person asked to delete it; nothing is deleted until the request is confirmed. */
export const ArtifactDeletionRequested = z.strictObject({
  requestId: uuid,
  by: actorSchema,
});

/** Irreversible: the artefact leaves every list; references show it as deleted; its blobs may be purged. */
export const ArtifactDeleted = z.strictObject({
  by: actorSchema,
  /** The person's recorded confirmation: a resolved checkpoint of a task, or a confirmed request. */
  confirmation: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('checkpoint'), taskId, checkpointId }),
    z.strictObject({ kind: z.literal('request'), requestId: uuid, confirmedBy: userId }),
  ]),
});
