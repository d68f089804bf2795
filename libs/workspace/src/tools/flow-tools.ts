import { z } from 'zod';
import { flowEdge, flowNodeId, jsonValue } from '@lomo/contracts';
import { defineTool, type JsonValue, type ToolDefinition } from '@lomo/tools';
import { retriedWrite } from './document-tools';
import type { WorkspaceToolDeps } from './workspace-tool-deps';
import { agentAuthor, artifactIdForCall, artifactResult, guarded, notFoundResult, writeMeta } from './tool-support';

const artifactId = z.uuid().describe('Id of the flow artefact');
const nodeKind = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/);
const params = z.record(z.string().max(64), jsonValue);

type ReadInput = { artifactId: string; includeParams?: boolean; nodeIds?: string[] };

/**
 * flow.read: a summary by default (node ids, kinds and versions, the number of edges), so a
 * 200-node flow does not fill the context; params and edges only when asked for.
 */
export function flowReadTool(deps: WorkspaceToolDeps): ToolDefinition<ReadInput> {
  return defineTool({
    name: 'flow.read',
    description:
      "Read a flow (a workflow of nodes and edges, e.g. a storyboard's shots): by default a summary with each node's id, kind and version and the edge count. Set includeParams (optionally with nodeIds) to get node params and the edges. flow.edit_nodes needs the node versions.",
    domain: 'flow',
    sideEffect: 'read',
    idempotent: true,
    input: z.strictObject({
      artifactId,
      includeParams: z.boolean().optional().describe('Also return node params and the edges'),
      nodeIds: z.array(flowNodeId).max(500).optional().describe('Only these nodes (with includeParams)'),
    }),
    run: (input, context) =>
      guarded(async () => {
        const flow = await deps.reader.flow(context.workspaceId, input.artifactId);
        if (flow === undefined) return notFoundResult(input.artifactId);
        const wanted = input.nodeIds === undefined ? undefined : new Set(input.nodeIds);
        const nodes = flow.nodes
          .filter((n) => wanted === undefined || wanted.has(n.nodeId))
          .map((n): JsonValue => {
            const line = { nodeId: n.nodeId, kind: n.kind, version: n.version };
            return input.includeParams === true ? { ...line, params: n.params as JsonValue } : line;
          });
        return artifactResult(input.artifactId, flow.version, {
          structureVersion: flow.structureVersion,
          nodes,
          edgeCount: flow.edges.length,
          ...(input.includeParams === true ? { edges: flow.edges } : {}),
        });
      }),
  });
}

type CreateInput = {
  title: string;
  nodes: Array<{ nodeId: string; kind: string; params: Record<string, unknown> }>;
  edges: Array<{ edgeId: string; from: string; to: string }>;
};

/** flow.create: a new flow bound to this task, its id derived from the call id (a retry is a no-op). */
export function flowCreateTool(deps: WorkspaceToolDeps): ToolDefinition<CreateInput> {
  return defineTool({
    name: 'flow.create',
    description:
      'Create a new flow in the workspace (e.g. one node per storyboard shot, edges for their order), bound to this task.',
    domain: 'flow',
    sideEffect: 'write',
    progress: 'artifact_version',
    idempotent: true,
    input: z.strictObject({
      title: z.string().trim().min(1).max(300),
      nodes: z.array(z.strictObject({ nodeId: flowNodeId, kind: nodeKind, params })).max(5000),
      edges: z.array(flowEdge).max(20_000).default([]),
    }),
    run: (input, context) =>
      guarded(async () => {
        const id = artifactIdForCall(context);
        const created = await deps.commands.create(
          {
            artifactId: id,
            kind: 'flow',
            title: input.title,
            by: agentAuthor(context),
            taskId: context.taskId,
            content: { type: 'flow', nodes: input.nodes, edges: input.edges },
          },
          writeMeta(context),
        );
        return artifactResult(id, created.version, { created: true, nodes: input.nodes.length });
      }),
  });
}

type EditNodesInput = {
  artifactId: string;
  baseVersion: number;
  edits: Array<{ nodeId: string; baseNodeVersion: number; params: Record<string, unknown> }>;
};

/**
 * flow.edit_nodes: per-node optimistic concurrency. Refused only if a node it touches changed;
 * the result names the other nodes that changed since the base, so the agent knows what moved.
 */
export function flowEditNodesTool(deps: WorkspaceToolDeps): ToolDefinition<EditNodesInput> {
  return defineTool({
    name: 'flow.edit_nodes',
    description:
      "Change the params of some nodes of a flow. Each edit names the node's version you read (baseNodeVersion); the edit is refused only if one of those nodes changed since, and the result lists the other nodes someone changed meanwhile.",
    domain: 'flow',
    sideEffect: 'write',
    progress: 'artifact_version',
    idempotent: true,
    input: z.strictObject({
      artifactId,
      baseVersion: z.number().int().min(1).describe('The flow version you read'),
      edits: z
        .array(z.strictObject({ nodeId: flowNodeId, baseNodeVersion: z.number().int().min(1), params }))
        .min(1)
        .max(500),
    }),
    run: (input, context) =>
      guarded(async () => {
        try {
          const written = await deps.commands.editFlowNodes(
            {
              artifactId: input.artifactId,
              baseVersion: input.baseVersion,
              edits: input.edits,
              by: agentAuthor(context),
            },
            writeMeta(context),
          );
          return artifactResult(input.artifactId, written.version, {
            nodeVersions: written.nodeVersions ?? {},
            otherChangedNodes: written.otherChangedNodes ?? [],
          });
        } catch (error) {
          const own = await retriedWrite(deps, context, input.artifactId, error);
          if (own !== undefined)
            return artifactResult(input.artifactId, own, { nodeVersions: {}, otherChangedNodes: [] });
          throw error;
        }
      }),
  });
}
