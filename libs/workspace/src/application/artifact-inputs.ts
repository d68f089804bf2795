import { z } from 'zod';
import {
  actorSchema,
  artifactAuthor,
  artifactKind,
  flowNodeId,
  jsonValue,
  traceId,
  userId,
  uuid,
  workspaceId,
} from '@lomo/contracts';
import { ArtifactRefusedError } from '../artifact-errors';

// The ports' inputs checked at the boundary: bad input is a typed ARTIFACT_INVALID_INPUT refusal
// that changes nothing, never a crash in the decider or a schema error from the event store.

const version = z.number().int().min(1);
const params = z.record(z.string().max(64), jsonValue);
const nodeKind = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/);
const newNode = z.strictObject({ nodeId: flowNodeId, kind: nodeKind, params });
const edge = z.strictObject({ edgeId: flowNodeId, from: flowNodeId, to: flowNodeId });
const contentType = z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/);
/** Documents up to 4 MB of text: large enough for any storyboard, small enough to hold in memory. */
const documentBody = z.string().max(4 * 1024 * 1024);

export const writeMetaSchema = z.object({
  workspaceId,
  correlationId: traceId,
  causationId: traceId.nullable().optional(),
  actor: actorSchema,
});

export const initialContentSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('document'),
    text: documentBody,
    contentType: z.enum(['text/markdown', 'text/plain']).optional(),
  }),
  z.strictObject({
    type: z.literal('flow'),
    nodes: z.array(newNode).max(5000),
    edges: z.array(edge).max(20_000),
  }),
  z.strictObject({ type: z.literal('blob'), bytes: z.instanceof(Buffer), contentType }),
  z.strictObject({ type: z.literal('asset_set'), members: z.array(uuid).max(10_000) }),
]);

export const createInput = z.strictObject({
  artifactId: uuid,
  kind: artifactKind,
  title: z.string().min(1).max(300),
  by: artifactAuthor,
  taskId: uuid.optional(),
  content: initialContentSchema,
});

export const rewriteInput = z.strictObject({
  artifactId: uuid,
  baseVersion: version,
  text: documentBody,
  by: artifactAuthor,
});

export const editDocumentInput = z.strictObject({
  artifactId: uuid,
  baseVersion: version,
  edits: z
    .array(z.strictObject({ old: z.string().min(1).max(100_000), new: z.string().max(1_000_000) }))
    .min(1)
    .max(1000),
  by: artifactAuthor,
});

export const editFlowNodesInput = z.strictObject({
  artifactId: uuid,
  baseVersion: version,
  edits: z
    .array(z.strictObject({ nodeId: flowNodeId, baseNodeVersion: version, params }))
    .min(1)
    .max(5000),
  by: artifactAuthor,
});

export const changeFlowStructureInput = z.strictObject({
  artifactId: uuid,
  baseStructureVersion: version,
  addNodes: z.array(newNode).max(5000).optional(),
  removeNodeIds: z.array(flowNodeId).max(5000).optional(),
  addEdges: z.array(edge).max(20_000).optional(),
  removeEdgeIds: z.array(flowNodeId).max(20_000).optional(),
  by: artifactAuthor,
});

export const replaceContentInput = z.strictObject({
  artifactId: uuid,
  baseVersion: version,
  content: initialContentSchema,
  by: artifactAuthor,
});

export const restoreInput = z.strictObject({
  artifactId: uuid,
  baseVersion: version,
  fromVersion: version,
  by: artifactAuthor,
});
export const referenceInput = z.strictObject({ artifactId: uuid, taskId: uuid, by: artifactAuthor });
export const requestDeletionInput = z.strictObject({ artifactId: uuid, requestId: uuid });
export const confirmDeletionInput = z.strictObject({ artifactId: uuid, requestId: uuid, userId });
export const deleteWithCheckpointInput = z.strictObject({ artifactId: uuid, taskId: uuid, checkpointId: uuid });

/** Parses a port input, or refuses it with the first problems found. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const artifactId =
    typeof input === 'object' && input !== null && typeof (input as { artifactId?: unknown }).artifactId === 'string'
      ? (input as { artifactId: string }).artifactId
      : '';
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
    .join('; ');
  throw new ArtifactRefusedError('ARTIFACT_INVALID_INPUT', `Invalid input: ${problems}`, { artifactId });
}
