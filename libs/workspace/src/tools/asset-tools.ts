import { z } from 'zod';
import { artifactKind, type ArtifactKind } from '@lomo/contracts';
import { defineTool, okResult, type ToolContext, type ToolDefinition } from '@lomo/tools';
import type { ArtifactView } from '../workspace-read.port';
import type { WorkspaceToolDeps } from './workspace-tool-deps';
import { agentAuthor, artifactResult, guarded, notFoundResult, writeMeta } from './tool-support';

const MAX_PAGE = 50;
const page = {
  first: z.number().int().min(1).max(MAX_PAGE).default(20),
  after: z.string().min(1).max(4_096).optional().describe('endCursor of the previous page'),
};
const scope = z
  .enum(['workspace', 'task'])
  .default('workspace')
  .describe('task: only artefacts bound to this task; workspace: all of them');

/**
 * One line per artefact. Listings name each artefact's latest version but carry no top-level
 * `artifact`: nothing's content was read, so no task counts as having seen a version.
 */
const summary = (a: ArtifactView) => ({
  artifactId: a.artifactId,
  kind: a.kind,
  title: a.title,
  version: a.version,
  updatedAt: a.updatedAt,
  taskIds: a.taskIds,
});

async function listed(
  deps: WorkspaceToolDeps,
  context: ToolContext,
  filter: { kind?: ArtifactKind; scope: 'workspace' | 'task'; text?: string },
  paging: { first: number; after?: string },
) {
  const result = await deps.readModel.artifacts(
    context.workspaceId,
    {
      ...(filter.kind !== undefined ? { kind: filter.kind } : {}),
      ...(filter.scope === 'task' ? { taskId: context.taskId } : {}),
      ...(filter.text !== undefined ? { text: filter.text } : {}),
    },
    { first: paging.first, ...(paging.after !== undefined ? { after: paging.after } : {}) },
  );
  return okResult({
    artifacts: result.items.map(summary),
    hasNextPage: result.hasNextPage,
    endCursor: result.endCursor ?? null,
  });
}

type ListInput = { kind?: ArtifactKind; scope: 'workspace' | 'task'; first: number; after?: string };

export function assetListTool(deps: WorkspaceToolDeps): ToolDefinition<ListInput> {
  return defineTool({
    name: 'asset.list',
    description:
      "List the workspace's artefacts (images, videos, 3d, audio, documents, asset sets, flows), most recently changed first, optionally of one kind or only this task's.",
    domain: 'asset',
    sideEffect: 'read',
    idempotent: true,
    input: z.strictObject({ kind: artifactKind.optional(), scope, ...page }),
    run: (input, context) => guarded(() => listed(deps, context, input, input)),
  });
}

type SearchInput = ListInput & { text: string };

export function assetSearchTool(deps: WorkspaceToolDeps): ToolDefinition<SearchInput> {
  return defineTool({
    name: 'asset.search',
    description:
      "Search the workspace's artefacts by words of their title or text, optionally of one kind or only this task's.",
    domain: 'asset',
    sideEffect: 'read',
    idempotent: true,
    input: z.strictObject({ text: z.string().trim().min(1).max(500), kind: artifactKind.optional(), scope, ...page }),
    run: (input, context) => guarded(() => listed(deps, context, input, input)),
  });
}

/** artifact.reference: binds an existing artefact to this task (routing then finds the task by it). */
export function artifactReferenceTool(deps: WorkspaceToolDeps): ToolDefinition<{ artifactId: string }> {
  return defineTool({
    name: 'artifact.reference',
    description:
      'Bind an existing artefact of the workspace to this task, so messages about it reach this task. The same artefact in two tasks stays one artefact.',
    domain: 'asset',
    sideEffect: 'write',
    // A repeat is a no-op in the decider.
    idempotent: true,
    input: z.strictObject({ artifactId: z.uuid() }),
    run: (input, context) =>
      guarded(async () => {
        const written = await deps.commands.reference(
          { artifactId: input.artifactId, taskId: context.taskId, by: agentAuthor(context) },
          writeMeta(context),
        );
        return artifactResult(input.artifactId, written.version, { taskId: context.taskId });
      }),
  });
}

/**
 * artifact.delete: irreversible. The runtime runs it only after the person approved this very
 * call at a checkpoint (libs/tools/src/authorization), and the write names that checkpoint, so
 * the artefact's decider can check the recorded approval itself.
 */
export function artifactDeleteTool(deps: WorkspaceToolDeps): ToolDefinition<{ artifactId: string }> {
  return defineTool({
    name: 'artifact.delete',
    description:
      'Delete an artefact of the workspace for good. It cannot be undone: the person is asked to approve first. Tasks that reference it then show it as deleted.',
    domain: 'asset',
    sideEffect: 'irreversible',
    // Deleting a deleted artefact is a no-op, so a retried call has no second effect.
    idempotent: true,
    input: z.strictObject({ artifactId: z.uuid() }),
    run: (input, context) =>
      guarded(async () => {
        const snapshot = await deps.reader.snapshot(context.workspaceId, input.artifactId);
        if (snapshot === undefined) return notFoundResult(input.artifactId);
        const written = await deps.commands.deleteWithCheckpoint(
          {
            artifactId: input.artifactId,
            taskId: context.taskId,
            checkpointId: deps.checkpointIdFor(context.callId),
          },
          writeMeta(context),
        );
        return artifactResult(input.artifactId, written.version, { deleted: true });
      }),
  });
}
