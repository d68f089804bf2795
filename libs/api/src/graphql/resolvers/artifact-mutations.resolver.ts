import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import { deterministicUuid, notFound, streams, type ArtifactAuthor } from '@lomo/contracts';
import type { ArtifactWriteMeta, ArtifactWriteResult } from '@lomo/workspace';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { currentTrace } from '../../consistency/current-trace';
import { tokenForWrites } from '../../consistency/token-for-writes';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import { ApiWorkspace } from '../../workspace/api-workspace';
import {
  ArtifactIdArgs,
  ConfirmArtifactDeletionArgs,
  CreateArtifactArgs,
  EditDocumentArgs,
  EditFlowNodesArgs,
  artifactIdSchema,
  confirmArtifactDeletionSchema,
  createArtifactSchema,
  editDocumentSchema,
  editFlowNodesSchema,
} from '../args/artifact.args';
import { validate } from '../args/input-schemas';
import { ArtifactDeletionRequest, ArtifactWritePayload } from '../types/artifact.types';

const person = (caller: Caller): ArtifactAuthor => ({ kind: 'person', userId: caller.userId });

/** A created artefact's id: from the client's own id when given, so a retried request is a no-op. */
export const artifactIdFor = (caller: Caller, clientArtifactId: string | undefined) =>
  clientArtifactId === undefined
    ? randomUUID()
    : deterministicUuid('lomo.api.artifact', caller.workspaceId, caller.userId, clientArtifactId);

function payload(result: ArtifactWriteResult): ArtifactWritePayload {
  const versions = (record: Record<string, number> | undefined) =>
    Object.entries(record ?? {}).map(([nodeId, version]) => ({ nodeId, version }));
  return {
    artifactId: result.artifactId,
    version: result.version,
    nodeVersions: versions(result.nodeVersions),
    otherChangedNodes: result.otherChangedNodes ?? [],
    consistencyToken: tokenForWrites([
      { streamId: streams.artifact(result.artifactId), revision: result.streamRevision },
    ]),
  };
}

/**
 * The person's edits of the shared workspace. They carry a base version like the agent's and go
 * through the same ports, so a stale base is refused with the current version and what changed
 * (extensions currentVersion, changedNodes), and a refused write changes nothing.
 */
@Resolver()
export class ArtifactMutationsResolver {
  constructor(
    @Inject(ApiWorkspace) private readonly workspace: ApiWorkspace,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
  ) {}

  @Mutation(() => ArtifactWritePayload, {
    description:
      'Creates a document or a flow in your workspace, optionally bound to one of its tasks. Media come in through POST /media.',
  })
  async createArtifact(
    @CurrentCaller() caller: Caller,
    @Args() args: CreateArtifactArgs,
  ): Promise<ArtifactWritePayload> {
    const input = validate(createArtifactSchema, args);
    const { commands } = this.workspace.ports();
    // A task id of another workspace must not be referenced: NOT_FOUND, like an unknown one.
    if (input.taskId !== undefined)
      await this.ownership.require(streams.task(input.taskId), caller, 'task', input.taskId);
    const content =
      input.kind === 'document'
        ? { type: 'document' as const, text: input.text ?? '', contentType: 'text/markdown' as const }
        : {
            type: 'flow' as const,
            nodes: (input.nodes ?? []).map((n) => ({ nodeId: n.nodeId, kind: n.kind, params: n.paramsJson })),
            edges: input.edges ?? [],
          };
    const result = await commands.create(
      {
        artifactId: artifactIdFor(caller, input.clientArtifactId),
        kind: input.kind,
        title: input.title,
        by: person(caller),
        ...(input.taskId !== undefined ? { taskId: input.taskId } : {}),
        content,
      },
      this.meta(caller),
    );
    return payload(result);
  }

  @Mutation(() => ArtifactWritePayload, {
    description:
      'Rewrites a document (`content`) or edits snippets of it (`edits`, all or none), based on the version you read. ARTIFACT_VERSION_CONFLICT (a rewrite) or SNIPPET_NOT_FOUND / SNIPPET_NOT_UNIQUE refuse it with `currentVersion` in the extensions, and nothing changes.',
  })
  async editDocument(@CurrentCaller() caller: Caller, @Args() args: EditDocumentArgs): Promise<ArtifactWritePayload> {
    const input = validate(editDocumentSchema, args);
    const { commands } = this.workspace.ports();
    const meta = this.meta(caller);
    const result =
      input.content !== undefined
        ? await commands.rewriteDocument(
            { artifactId: input.id, baseVersion: input.baseVersion, text: input.content, by: person(caller) },
            meta,
          )
        : await commands.editDocument(
            { artifactId: input.id, baseVersion: input.baseVersion, edits: input.edits!, by: person(caller) },
            meta,
          );
    return payload(result);
  }

  @Mutation(() => ArtifactWritePayload, {
    description:
      "Changes the params of some nodes of a flow, each based on the node's version you read. FLOW_NODE_CONFLICT (with `changedNodes`) or FLOW_NODE_DELETED refuse it, and nothing changes; edits to other nodes by others are not a conflict and are listed in otherChangedNodes.",
  })
  async editFlowNodes(@CurrentCaller() caller: Caller, @Args() args: EditFlowNodesArgs): Promise<ArtifactWritePayload> {
    const input = validate(editFlowNodesSchema, args);
    const { commands } = this.workspace.ports();
    const result = await commands.editFlowNodes(
      {
        artifactId: input.flowId,
        baseVersion: input.baseVersion,
        edits: input.edits.map((e) => ({ nodeId: e.nodeId, baseNodeVersion: e.baseNodeVersion, params: e.paramsJson })),
        by: person(caller),
      },
      this.meta(caller),
    );
    return payload(result);
  }

  @Mutation(() => ArtifactDeletionRequest, {
    description:
      'Asks to delete an artefact: nothing is deleted yet. Ask the person, then call confirmArtifactDeletion with the requestId.',
  })
  async deleteArtifact(
    @CurrentCaller() caller: Caller,
    @Args() args: ArtifactIdArgs,
  ): Promise<ArtifactDeletionRequest> {
    const { id } = validate(artifactIdSchema, args);
    const { commands, reader } = this.workspace.ports();
    const snapshot = await reader.snapshot(caller.workspaceId, id);
    if (snapshot === undefined) throw notFound('artifact', id);
    const requestId = randomUUID();
    const result = await commands.requestDeletion({ artifactId: id, requestId }, this.meta(caller));
    return {
      artifactId: id,
      requestId,
      question: `Delete "${snapshot.title}" for good? Tasks that use it will show it as deleted. This cannot be undone.`,
      consistencyToken: payload(result).consistencyToken,
    };
  }

  @Mutation(() => ArtifactWritePayload, {
    description:
      'Confirms a deletion deleteArtifact asked for: the artefact leaves every list and references show it as deleted. DELETION_NOT_CONFIRMED when the requestId is not the pending request.',
  })
  async confirmArtifactDeletion(
    @CurrentCaller() caller: Caller,
    @Args() args: ConfirmArtifactDeletionArgs,
  ): Promise<ArtifactWritePayload> {
    const { id, requestId } = validate(confirmArtifactDeletionSchema, args);
    const { commands } = this.workspace.ports();
    const result = await commands.confirmDeletion(
      { artifactId: id, requestId, userId: caller.userId },
      this.meta(caller),
    );
    return payload(result);
  }

  private meta(caller: Caller): ArtifactWriteMeta {
    const trace = currentTrace();
    return {
      workspaceId: caller.workspaceId,
      correlationId: trace.correlationId,
      causationId: trace.causationId,
      actor: { kind: 'user', userId: caller.userId },
    };
  }
}
